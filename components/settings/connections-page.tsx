"use client";
// Settings → Models & connections: the model endpoints this server uses — the environment's (read-only) and those
// added here — each with its models, "Test" (what it serves now, or what failed, in words), enable/disable and delete.
// Keys are never shown: a connection says only whether one is set.
import { useCallback, useEffect, useState } from "react";
import type { ConnectionTest, ConnectionView } from "@/lib/chat/connections";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { AccountPageFrame } from "../accounts/account-page-frame";
import { button, section } from "../accounts/admin-styles";
import { forgetModelList } from "../model-picker";
import { ConnectionForm } from "./connection-form";

const testWords = (test: ConnectionTest) =>
  test.ok
    ? test.models.length
      ? `Serves ${test.models.length} model${test.models.length === 1 ? "" : "s"}: ${test.models.map((m) => m.id).join(", ")}`
      : "Answers, but serves no model."
    : `Failed: ${test.error}`;

function ConnectionRow({ connection, onChange }: { connection: ConnectionView; onChange: () => void }) {
  const [status, setStatus] = useState<{ text: string; ok: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const path = `/api/connections/${encodeURIComponent(connection.id)}`;
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (e) {
      setStatus({ text: failureText(e), ok: false });
    } finally {
      setBusy(false);
    }
  };
  const test = () =>
    run(async () => {
      const result = await apiFetch<ConnectionTest>(`${path}/test`, { method: "POST" });
      setStatus({ text: testWords(result), ok: result.ok });
    });
  const toggle = () =>
    run(async () => {
      await apiFetch(path, { method: "PATCH", body: JSON.stringify({ enabled: !connection.enabled }) });
      onChange();
    });
  const remove = () =>
    run(async () => {
      await apiFetch(path, { method: "DELETE" });
      onChange();
    });
  const label = `connection ${connection.id}`;
  return (
    <li
      data-testid="connection"
      data-connection={connection.id}
      className="border-t border-border py-3 first:border-t-0"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 className="font-medium">{connection.id}</h3>
        <span className="text-sm text-muted">{connection.kind}</span>
        <span className="min-w-0 truncate font-mono text-xs text-muted">
          {connection.baseUrl ?? "the provider's own URL"}
        </span>
        <span data-testid="connection-key-state" className="text-xs text-muted">
          {connection.apiKeySet ? "Key set" : "No key"}
        </span>
        {connection.editable ? null : <span className="text-xs text-muted">Set by the server's environment</span>}
      </div>
      <p data-testid="connection-models" className="mt-1 text-sm text-muted">
        {connection.enabled
          ? connection.models.length
            ? connection.models.map((m) => `${m.id} (${m.contextWindow.toLocaleString()} tokens)`).join(", ")
            : (connection.error ?? "No models listed yet.")
          : "Disabled: its models are not offered."}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <button
          type="button"
          data-testid="connection-test"
          aria-label={`Test ${label}`}
          disabled={busy}
          onClick={() => void test()}
          className={button}
        >
          Test
        </button>
        {connection.editable && (
          <>
            <button
              type="button"
              data-testid="connection-toggle"
              aria-label={`${connection.enabled ? "Disable" : "Enable"} ${label}`}
              disabled={busy}
              onClick={() => void toggle()}
              className={button}
            >
              {connection.enabled ? "Disable" : "Enable"}
            </button>
            <button
              type="button"
              data-testid="connection-delete"
              aria-label={`Delete ${label}`}
              disabled={busy}
              onClick={() => void remove()}
              className={button}
            >
              Delete
            </button>
          </>
        )}
      </div>
      <p
        role="status"
        data-testid="connection-status"
        className={`mt-2 text-sm ${status?.ok === false ? "text-danger" : "text-muted"}`}
      >
        {status?.text}
      </p>
    </li>
  );
}

export function ConnectionsPage() {
  const [connections, setConnections] = useState<ConnectionView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    forgetModelList();
    apiFetch<ConnectionView[]>("/api/connections")
      .then((list) => {
        setConnections(list);
        setError(null);
      })
      .catch((e) => setError(failureText(e)));
  }, []);
  useEffect(load, [load]);
  return (
    <AccountPageFrame title="Models & connections" testId="connections-page" width="3xl">
      <section aria-labelledby="connections-heading" className={section}>
        <h2 id="connections-heading" className="font-semibold">
          Connections
        </h2>
        <p className="mt-1 text-sm text-muted">
          Each connection's models are offered in the model picker as connection/model, with the context window its
          server reports.
        </p>
        {error && (
          <p role="alert" className="mt-2 text-sm text-danger">
            {error}
          </p>
        )}
        <ul className="mt-2">
          {(connections ?? []).map((c) => (
            <ConnectionRow key={c.id} connection={c} onChange={load} />
          ))}
        </ul>
        {connections?.length === 0 && <p className="mt-2 text-sm text-muted">None yet: the demo model answers.</p>}
      </section>
      <section aria-labelledby="add-connection-heading" className={section}>
        <h2 id="add-connection-heading" className="font-semibold">
          Add a connection
        </h2>
        <p className="mt-1 text-sm text-muted">
          For Ollama on this machine: kind OpenAI-compatible, URL http://localhost:11434/v1, no key.
        </p>
        <ConnectionForm onAdded={load} />
      </section>
    </AccountPageFrame>
  );
}
