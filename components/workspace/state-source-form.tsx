"use client";
// The form that adds a workspace's state source, or edits one (the name and kind stay). An http source is a URL
// answering a flat JSON object, with write-only headers (editing shows their names only; new lines replace them all);
// an mcp-resource source names one of the workspace's MCP servers and a resource URI.
import { type FormEvent, useState } from "react";

export type StateSourceFields = {
  name: string;
  kind: "http" | "mcp-resource";
  url?: string;
  headers: Record<string, string>;
  server?: string;
  uri?: string;
  refreshSeconds: number;
  timeoutSeconds: number;
  maxTokens: number;
};

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

function NumberInput({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <label className="block flex-1 text-xs font-medium text-muted">
      {label}
      <input
        data-testid={id}
        inputMode="numeric"
        value={value}
        maxLength={6}
        onChange={(e) => onChange(e.target.value)}
        className={`${field} mt-1`}
      />
    </label>
  );
}

/** `editing`: the source as listed (its header names only); absent: a new source. */
export function StateSourceForm({
  editing,
  onSubmit,
  onCancel,
}: {
  editing?: StateSourceFields;
  onSubmit: (body: Record<string, unknown>) => Promise<string | null>;
  onCancel: () => void;
}) {
  const [name, setName] = useState(editing?.name ?? "");
  const [kind, setKind] = useState<StateSourceFields["kind"]>(editing?.kind ?? "http");
  const [url, setUrl] = useState(editing?.url ?? "");
  const [headers, setHeaders] = useState("");
  const [server, setServer] = useState(editing?.server ?? "");
  const [uri, setUri] = useState(editing?.uri ?? "");
  const [refresh, setRefresh] = useState(String(editing?.refreshSeconds ?? 60));
  const [timeout, setTimeoutText] = useState(String(editing?.timeoutSeconds ?? 2));
  const [maxTokens, setMaxTokens] = useState(String(editing?.maxTokens ?? 200));
  const [error, setError] = useState<string | null>(null);
  const headerNames = Object.keys(editing?.headers ?? {});
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const numbers = { refreshSeconds: refresh, timeoutSeconds: timeout, maxTokens };
    for (const [key, text] of Object.entries(numbers))
      if (!/^\d+$/.test(text.trim())) return setError(`${key} must be a whole number.`);
    const figures = Object.fromEntries(Object.entries(numbers).map(([k, v]) => [k, Number(v)]));
    let target: Record<string, unknown>;
    if (kind === "http") {
      const parsed = headersOf(headers);
      if (typeof parsed === "string") return setError(parsed);
      target = { url: url.trim(), ...(Object.keys(parsed).length ? { headers: parsed } : {}) };
    } else target = { server: server.trim(), uri: uri.trim() };
    setError(await onSubmit(editing ? { ...target, ...figures } : { name: name.trim(), kind, ...target, ...figures }));
  };
  return (
    <form
      data-testid={editing ? "state-edit-form" : "state-form"}
      onSubmit={(e) => void submit(e)}
      className="space-y-2 rounded-lg border border-border p-3"
    >
      {editing ? (
        <p className="text-xs font-medium text-muted">
          Editing <span className="font-mono text-fg">{editing.name}</span> (the name and kind stay)
        </p>
      ) : (
        <div className="flex gap-2">
          <label className="block flex-1 text-xs font-medium text-muted">
            Name (kebab-case)
            <input
              data-testid="state-name-input"
              value={name}
              maxLength={32}
              placeholder="deploy-status"
              onChange={(e) => setName(e.target.value)}
              className={`${field} mt-1 font-mono`}
            />
          </label>
          <label className="block w-44 text-xs font-medium text-muted">
            Kind
            <select
              data-testid="state-kind-input"
              value={kind}
              onChange={(e) => setKind(e.target.value as StateSourceFields["kind"])}
              className={`${field} mt-1`}
            >
              <option value="http">HTTP (JSON fields)</option>
              <option value="mcp-resource">MCP resource</option>
            </select>
          </label>
        </div>
      )}
      {kind === "http" ? (
        <>
          <label className="block text-xs font-medium text-muted">
            URL (a GET answering a flat JSON object of fields)
            <input
              data-testid="state-url-input"
              value={url}
              maxLength={2048}
              placeholder="https://status.example.com/deploy.json"
              onChange={(e) => setUrl(e.target.value)}
              className={`${field} mt-1 font-mono`}
            />
          </label>
          <label className="block text-xs font-medium text-muted">
            {headerNames.length
              ? `Headers set: ${headerNames.join(", ")} (values hidden). New "Name: value" lines replace them all`
              : 'Headers, one "Name: value" per line (write-only: never shown again)'}
            <textarea
              data-testid="state-headers-input"
              value={headers}
              rows={2}
              onChange={(e) => setHeaders(e.target.value)}
              className={`${field} mt-1 font-mono`}
            />
          </label>
        </>
      ) : (
        <div className="flex gap-2">
          <label className="block w-44 text-xs font-medium text-muted">
            MCP server
            <input
              data-testid="state-server-input"
              value={server}
              maxLength={32}
              onChange={(e) => setServer(e.target.value)}
              className={`${field} mt-1 font-mono`}
            />
          </label>
          <label className="block flex-1 text-xs font-medium text-muted">
            Resource URI
            <input
              data-testid="state-uri-input"
              value={uri}
              maxLength={2048}
              onChange={(e) => setUri(e.target.value)}
              className={`${field} mt-1 font-mono`}
            />
          </label>
        </div>
      )}
      <div className="flex gap-2">
        <NumberInput
          id="state-refresh-input"
          label="Read every (seconds, ≥ 10)"
          value={refresh}
          onChange={setRefresh}
        />
        <NumberInput
          id="state-timeout-input"
          label="Wait at most (seconds)"
          value={timeout}
          onChange={setTimeoutText}
        />
        <NumberInput
          id="state-tokens-input"
          label="At most (tokens, ≤ 500)"
          value={maxTokens}
          onChange={setMaxTokens}
        />
      </div>
      {error && (
        <p role="alert" data-testid="state-error" className="text-xs text-danger">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <button
          type="submit"
          data-testid="state-save"
          className="rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-accent-fg"
        >
          {editing ? "Save changes" : "Add source"}
        </button>
        <button type="button" className="rounded-lg border border-border px-3 py-1.5 text-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
