"use client";
// A workspace's MCP servers (issue 27): add one (name, URL, headers, approval, timeout), edit it, enable or disable it,
// change its approval, see its status and tools, remove it. Header values are write-only: shown masked, sent again in full
// to change them. The operator's servers (HINTLINE_MCP_CONFIG) are listed read-only.
import { useCallback, useEffect, useState } from "react";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { PlusIcon, TrashIcon } from "../ui/icons";
import { MCP_APPROVALS as APPROVALS, McpServerForm } from "./mcp-server-form";
import { McpToolChange, type ToolChange } from "./mcp-tool-change";

type Tool = {
  name: string;
  description: string;
  annotations: { readOnlyHint?: boolean };
  tokens: number;
  change?: ToolChange;
  leftOut?: { reason: string; message: string };
};
type Server = {
  name: string;
  source: "workspace" | "operator";
  transport: "http" | "stdio";
  url?: string;
  headers: Record<string, string>;
  approval: "ask" | "read-only-auto" | "always";
  enabled: boolean;
  timeoutSeconds: number;
  status?: "connected" | "failed" | "disabled";
  error?: string;
  tools?: Tool[];
};

/** "Connected · 1,000 tools, 128 offered, 5,120 tokens": the tokens are those a conversation would be offered. */
function connectedLine(tools: Tool[]): string {
  const offered = tools.filter((t) => !t.leftOut);
  const tokens = offered.reduce((n, t) => n + t.tokens, 0).toLocaleString("en-US");
  const count = `${tools.length.toLocaleString("en-US")} tools`;
  return `Connected · ${offered.length === tools.length ? count : `${count}, ${offered.length.toLocaleString("en-US")} offered`}, ${tokens} tokens`;
}

function ServerItem({ server, base, onChanged }: { server: Server; base: string; onChanged: () => Promise<void> }) {
  const [detail, setDetail] = useState<Server | null>(null);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const own = server.source === "workspace";
  const path = `${base}/${encodeURIComponent(server.name)}`;
  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      await onChanged();
    } catch (e) {
      setError(failureText(e));
    }
  };
  const save = async (body: Record<string, unknown>): Promise<string | null> => {
    try {
      await apiFetch(path, { method: "PATCH", body: JSON.stringify(body) });
      setEditing(false);
      setDetail(null);
      await onChanged();
      return null;
    } catch (e) {
      return failureText(e);
    }
  };
  const check = async () => {
    setError(null);
    try {
      setDetail(await apiFetch<Server>(path));
    } catch (e) {
      setError(failureText(e));
    }
  };
  return (
    <li data-testid="mcp-item" data-name={server.name} className="space-y-1 rounded-lg px-2 py-1.5 hover:bg-chip/50">
      <div className="flex items-center gap-2">
        <div className="min-w-0 flex-1">
          <p className="font-mono text-xs font-medium">
            {server.name}{" "}
            <span className="font-sans font-normal text-faint">
              · {own ? server.url : `operator's ${server.transport} server`}
            </span>
          </p>
          {Object.keys(server.headers).length > 0 && (
            <p className="font-mono text-xs text-faint">
              {Object.entries(server.headers)
                .map(([k, v]) => `${k}: ${v}`)
                .join(" · ")}
            </p>
          )}
        </div>
        {own ? (
          <>
            <select
              aria-label={`Approval for ${server.name}`}
              data-testid="mcp-item-approval"
              value={server.approval}
              onChange={(e) =>
                void act(() => apiFetch(path, { method: "PATCH", body: JSON.stringify({ approval: e.target.value }) }))
              }
              className="rounded-md border border-border bg-elevated px-1.5 py-1 text-xs"
            >
              {APPROVALS.map((a) => (
                <option key={a.value} value={a.value}>
                  {a.label}
                </option>
              ))}
            </select>
            <label className="flex items-center gap-1 text-xs text-muted">
              <input
                type="checkbox"
                data-testid="mcp-item-enabled"
                checked={server.enabled}
                onChange={(e) =>
                  void act(() =>
                    apiFetch(path, { method: "PATCH", body: JSON.stringify({ enabled: e.target.checked }) }),
                  )
                }
              />
              Enabled
            </label>
          </>
        ) : (
          <span className="text-xs text-faint">{APPROVALS.find((a) => a.value === server.approval)?.label}</span>
        )}
        <button
          type="button"
          data-testid="mcp-item-check"
          className="rounded-md border border-border px-2 py-1 text-xs"
          onClick={() => void check()}
        >
          Status
        </button>
        {own && (
          <button
            type="button"
            data-testid="mcp-item-edit"
            aria-expanded={editing}
            className="rounded-md border border-border px-2 py-1 text-xs"
            onClick={() => setEditing(!editing)}
          >
            Edit
          </button>
        )}
        {own && (
          <button
            type="button"
            data-testid="mcp-item-delete"
            aria-label={`Remove MCP server ${server.name}`}
            className="rounded-md p-1.5 text-muted hover:bg-bg hover:text-danger"
            onClick={() => void act(() => apiFetch(path, { method: "DELETE" }))}
          >
            <TrashIcon />
          </button>
        )}
      </div>
      {editing && <McpServerForm editing={server} onSubmit={save} onCancel={() => setEditing(false)} />}
      {detail && (
        <div data-testid="mcp-item-status" data-status={detail.status} className="text-xs text-muted">
          {detail.status === "connected"
            ? connectedLine(detail.tools ?? [])
            : detail.status === "failed"
              ? `Cannot connect: ${detail.error}`
              : "Disabled"}
          {detail.tools && detail.tools.length > 0 && (
            <ul className="mt-1 space-y-0.5">
              {detail.tools.map((t) => (
                <li
                  key={t.name}
                  data-testid="mcp-tool"
                  data-name={t.name}
                  data-changed={t.change ? "true" : undefined}
                  className="font-mono"
                >
                  {t.name}{" "}
                  <span className="font-sans text-faint">
                    {t.annotations.readOnlyHint ? "read-only" : "may change things"} · {t.tokens} tokens
                  </span>
                  {t.leftOut && (
                    <span data-testid="mcp-tool-left-out" className="font-sans text-muted">
                      {" "}
                      · left out: {t.leftOut.message}
                    </span>
                  )}
                  {t.change && (
                    <McpToolChange
                      tool={t.name}
                      change={t.change}
                      acceptPath={`${path}/tools/${encodeURIComponent(t.name)}/accept`}
                      onAccepted={check}
                    />
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      )}
    </li>
  );
}

export function McpSection({ workspaceId }: { workspaceId: string }) {
  const [servers, setServers] = useState<Server[] | null>(null);
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const base = `/api/workspaces/${encodeURIComponent(workspaceId)}/mcp-servers`;
  const load = useCallback(async () => {
    try {
      setServers(await apiFetch<Server[]>(base));
    } catch (e) {
      setError(failureText(e));
    }
  }, [base]);
  useEffect(() => void load(), [load]);
  const add = async (body: Record<string, unknown>): Promise<string | null> => {
    try {
      await apiFetch(base, { method: "POST", body: JSON.stringify(body) });
      setAdding(false);
      await load();
      return null;
    } catch (e) {
      return failureText(e);
    }
  };
  return (
    <section data-testid="mcp-section" aria-labelledby="mcp-heading" className="space-y-2">
      <div className="flex items-baseline justify-between">
        <h2 id="mcp-heading" className="text-sm font-semibold">
          MCP servers <span className="font-normal text-faint">{servers ? `· ${servers.length}` : ""}</span>
        </h2>
        {!adding && (
          <button
            type="button"
            data-testid="mcp-new"
            className="flex items-center gap-1 text-xs text-muted hover:text-fg"
            onClick={() => setAdding(true)}
          >
            <PlusIcon width={12} height={12} /> Add server
          </button>
        )}
      </div>
      <p className="text-xs text-muted">
        Their tools reach new conversations of this workspace as mcp__&lt;server&gt;__&lt;tool&gt;; a running
        conversation is told what changed and takes the new tools in at its next compression, or when you choose "Use
        the new tools now" there.
      </p>
      {adding && <McpServerForm onSubmit={add} onCancel={() => setAdding(false)} />}
      <ul data-testid="mcp-list" data-loaded={servers !== null} className="space-y-1">
        {servers?.length === 0 && !adding && <li className="text-sm text-muted">No MCP servers yet.</li>}
        {servers?.map((s) => (
          <ServerItem key={`${s.source}:${s.name}`} server={s} base={base} onChanged={load} />
        ))}
      </ul>
      {error && (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      )}
    </section>
  );
}
