"use client";
// A workspace's state sources (issue 48): the person's own runtime state — a deploy's status, who is on call, a
// queue's depth — told to the agent before a reasoning step when it changed. Add one, read it now (its fields, or why
// it failed), edit it, switch it on or off, remove it. Header values are write-only: shown as names only.
import { useCallback, useEffect, useState } from "react";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { PlusIcon, TrashIcon } from "../ui/icons";
import { type StateSourceFields, StateSourceForm } from "./state-source-form";

type Source = StateSourceFields & { enabled: boolean };
type Reading = { ok: true; fields: Record<string, string>; readAt: string } | { ok: false; reason: string };

function SourceItem({ source, base, onChanged }: { source: Source; base: string; onChanged: () => Promise<void> }) {
  const [reading, setReading] = useState<Reading | null>(null);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const path = `${base}/${encodeURIComponent(source.name)}`;
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
      await onChanged();
      return null;
    } catch (e) {
      return failureText(e);
    }
  };
  const readNow = async () => {
    setError(null);
    try {
      setReading(await apiFetch<Reading>(`${path}/read`, { method: "POST" }));
    } catch (e) {
      setError(failureText(e));
    }
  };
  const where = source.kind === "http" ? source.url : `${source.server} · ${source.uri}`;
  return (
    <li data-testid="state-item" data-name={source.name} className="space-y-1 rounded-lg px-2 py-1.5 hover:bg-chip/50">
      <div className="flex items-center gap-2">
        <div className="min-w-0 flex-1">
          <p className="font-mono text-xs font-medium">
            {source.name} <span className="font-sans font-normal text-faint">· {where}</span>
          </p>
          <p className="text-xs text-faint">
            every {source.refreshSeconds} s · waits {source.timeoutSeconds} s · up to {source.maxTokens} tokens
            {Object.keys(source.headers).length > 0 && ` · headers ${Object.keys(source.headers).join(", ")}`}
          </p>
        </div>
        <label className="flex items-center gap-1 text-xs text-muted">
          <input
            type="checkbox"
            data-testid="state-item-enabled"
            checked={source.enabled}
            onChange={(e) =>
              void act(() => apiFetch(path, { method: "PATCH", body: JSON.stringify({ enabled: e.target.checked }) }))
            }
          />
          Enabled
        </label>
        <button
          type="button"
          data-testid="state-item-read"
          className="rounded-md border border-border px-2 py-1 text-xs"
          onClick={() => void readNow()}
        >
          Read now
        </button>
        <button
          type="button"
          data-testid="state-item-edit"
          aria-expanded={editing}
          className="rounded-md border border-border px-2 py-1 text-xs"
          onClick={() => setEditing(!editing)}
        >
          Edit
        </button>
        <button
          type="button"
          data-testid="state-item-delete"
          aria-label={`Remove state source ${source.name}`}
          className="rounded-md p-1.5 text-muted hover:bg-bg hover:text-danger"
          onClick={() => void act(() => apiFetch(path, { method: "DELETE" }))}
        >
          <TrashIcon />
        </button>
      </div>
      {editing && <StateSourceForm editing={source} onSubmit={save} onCancel={() => setEditing(false)} />}
      {reading && (
        <div data-testid="state-item-reading" data-ok={reading.ok} className="text-xs text-muted">
          {reading.ok ? (
            <ul className="font-mono">
              {Object.entries(reading.fields).map(([key, value]) => (
                <li key={key}>
                  {key}: <span className="text-fg">{value}</span>
                </li>
              ))}
              {Object.keys(reading.fields).length === 0 && <li className="font-sans">No fields.</li>}
            </ul>
          ) : (
            `Cannot read it: ${reading.reason}.`
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

export function StateSection({ workspaceId }: { workspaceId: string }) {
  const [sources, setSources] = useState<Source[] | null>(null);
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const base = `/api/workspaces/${encodeURIComponent(workspaceId)}/state-sources`;
  const load = useCallback(async () => {
    try {
      setSources(await apiFetch<Source[]>(base));
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
    <section data-testid="state-section" aria-labelledby="state-heading" className="space-y-2">
      <div className="flex items-baseline justify-between">
        <h2 id="state-heading" className="text-sm font-semibold">
          State sources <span className="font-normal text-faint">{sources ? `· ${sources.length}` : ""}</span>
        </h2>
        {!adding && (
          <button
            type="button"
            data-testid="state-new"
            className="flex items-center gap-1 text-xs text-muted hover:text-fg"
            onClick={() => setAdding(true)}
          >
            <PlusIcon width={12} height={12} /> Add source
          </button>
        )}
      </div>
      <p className="text-xs text-muted">
        Your own live state, read before the agent's next step and told to it only when a field changed, like the time.
      </p>
      {adding && <StateSourceForm onSubmit={add} onCancel={() => setAdding(false)} />}
      <ul data-testid="state-list" data-loaded={sources !== null} className="space-y-1">
        {sources?.length === 0 && !adding && <li className="text-sm text-muted">No state sources yet.</li>}
        {sources?.map((s) => (
          <SourceItem key={s.name} source={s} base={base} onChanged={load} />
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
