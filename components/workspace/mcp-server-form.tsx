"use client";
// The form that adds a workspace's MCP server, or edits one (URL, headers, approval, timeout; the name stays). Header
// values are write-only: editing shows which headers are set, never their values; new lines replace them all, and
// "Remove the headers" clears them.
import { type FormEvent, useState } from "react";

export type McpApprovalValue = "ask" | "read-only-auto" | "always";
export type McpServerFields = {
  name: string;
  url?: string;
  headers: Record<string, string>;
  approval: McpApprovalValue;
  timeoutSeconds: number;
};

export const MCP_APPROVALS: { value: McpApprovalValue; label: string }[] = [
  { value: "read-only-auto", label: "Ask unless read-only" },
  { value: "ask", label: "Ask every call" },
  { value: "always", label: "Never ask" },
];
const DEFAULT_TIMEOUT_SECONDS = 60;

const field =
  "w-full rounded-lg border border-border bg-elevated px-3 py-1.5 text-sm outline-none focus:border-accent/60";

/** "Name: value" lines into a header object (values are write-only: the server never sends them back). */
function headersOf(text: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const line of text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)) {
    const at = line.indexOf(":");
    if (at <= 0) return `"${line}" is not a "Name: value" header line.`;
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/** `editing`: the server as listed (its header names only); absent: a new server. */
export function McpServerForm({
  editing,
  onSubmit,
  onCancel,
}: {
  editing?: McpServerFields;
  onSubmit: (body: Record<string, unknown>) => Promise<string | null>;
  onCancel: () => void;
}) {
  const [name, setName] = useState(editing?.name ?? "");
  const [url, setUrl] = useState(editing?.url ?? "");
  const [headers, setHeaders] = useState("");
  const [clearHeaders, setClearHeaders] = useState(false);
  const [approval, setApproval] = useState<McpApprovalValue>(editing?.approval ?? "read-only-auto");
  const [timeout, setTimeoutText] = useState(String(editing?.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS));
  const [error, setError] = useState<string | null>(null);
  const headerNames = Object.keys(editing?.headers ?? {});
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = headersOf(headers);
    if (typeof parsed === "string") return setError(parsed);
    const seconds = Number(timeout);
    if (!/^\d+$/.test(timeout.trim()) || !Number.isSafeInteger(seconds))
      return setError("The timeout must be a whole number of seconds.");
    const newHeaders = Object.keys(parsed).length ? { headers: parsed } : clearHeaders ? { headers: {} } : {};
    const body = editing
      ? { url: url.trim(), approval, timeoutSeconds: seconds, ...newHeaders }
      : {
          name: name.trim(),
          url: url.trim(),
          approval,
          ...(seconds === DEFAULT_TIMEOUT_SECONDS ? {} : { timeoutSeconds: seconds }),
          ...newHeaders,
        };
    setError(await onSubmit(body));
  };
  return (
    <form
      data-testid={editing ? "mcp-edit-form" : "mcp-form"}
      onSubmit={(e) => void submit(e)}
      className="space-y-2 rounded-lg border border-border p-3"
    >
      {editing ? (
        <p className="text-xs font-medium text-muted">
          Editing <span className="font-mono text-fg">{editing.name}</span> (the name stays; conversations hear of the
          change)
        </p>
      ) : (
        <label className="block text-xs font-medium text-muted">
          Name (kebab-case)
          <input
            data-testid="mcp-name-input"
            value={name}
            maxLength={32}
            placeholder="issue-tracker"
            onChange={(e) => setName(e.target.value)}
            className={`${field} mt-1 font-mono`}
          />
        </label>
      )}
      <label className="block text-xs font-medium text-muted">
        URL (Streamable HTTP or SSE)
        <input
          data-testid="mcp-url-input"
          value={url}
          maxLength={2048}
          placeholder="https://mcp.example.com/mcp"
          onChange={(e) => setUrl(e.target.value)}
          className={`${field} mt-1 font-mono`}
        />
      </label>
      <label className="block text-xs font-medium text-muted">
        {editing
          ? headerNames.length
            ? `Headers set: ${headerNames.join(", ")} (values hidden). New "Name: value" lines replace them all; leave empty to keep them`
            : 'No headers set. Add "Name: value" lines (write-only: never shown again)'
          : 'Headers, one "Name: value" per line (write-only: never shown again)'}
        <textarea
          data-testid="mcp-headers-input"
          value={headers}
          rows={2}
          onChange={(e) => setHeaders(e.target.value)}
          className={`${field} mt-1 font-mono`}
        />
      </label>
      {editing && headerNames.length > 0 && (
        <label className="flex items-center gap-1.5 text-xs text-muted">
          <input
            type="checkbox"
            data-testid="mcp-headers-clear"
            checked={clearHeaders}
            disabled={headers.trim() !== ""}
            onChange={(e) => setClearHeaders(e.target.checked)}
          />
          Remove the headers
        </label>
      )}
      <div className="flex gap-2">
        <label className="block flex-1 text-xs font-medium text-muted">
          Approval
          <select
            data-testid="mcp-approval-input"
            value={approval}
            onChange={(e) => setApproval(e.target.value as McpApprovalValue)}
            className={`${field} mt-1`}
          >
            {MCP_APPROVALS.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </label>
        <label className="block w-36 text-xs font-medium text-muted">
          Call timeout (seconds)
          <input
            data-testid="mcp-timeout-input"
            inputMode="numeric"
            value={timeout}
            maxLength={4}
            onChange={(e) => setTimeoutText(e.target.value)}
            className={`${field} mt-1`}
          />
        </label>
      </div>
      {error && (
        <p role="alert" data-testid="mcp-error" className="text-xs text-danger">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <button
          type="submit"
          data-testid="mcp-save"
          className="rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-accent-fg"
        >
          {editing ? "Save changes" : "Add server"}
        </button>
        <button
          type="button"
          data-testid="mcp-cancel"
          className="rounded-lg border border-border px-3 py-1.5 text-sm"
          onClick={onCancel}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
