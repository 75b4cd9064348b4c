"use client";
// "Add a connection": kind, id, URL and key. The server asks the URL for its models before it stores anything, so a
// wrong URL or key is told here in words and nothing is added. The key field is write-only: it is sent once, never
// shown again (the list says "Key set").
import { useId, useState } from "react";
import type { ConnectionView } from "@/lib/chat/connections";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { primary } from "../accounts/admin-styles";

const KINDS = [
  ["openai-compatible", "OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp)"],
  ["openai", "OpenAI"],
  ["anthropic", "Anthropic"],
  ["google", "Google Gemini"],
] as const;
const field = "mt-1 w-full rounded-lg border border-border bg-bg px-2 py-1.5 text-sm";

export function ConnectionForm({ onAdded }: { onAdded: (added: ConnectionView) => void }) {
  const ids = useId();
  const [kind, setKind] = useState<(typeof KINDS)[number][0]>("openai-compatible");
  const [id, setId] = useState("");
  const [baseUrl, setBaseUrl] = useState("http://localhost:11434/v1");
  const [apiKey, setApiKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = {
        id: id.trim(),
        kind,
        ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
        ...(apiKey ? { apiKey } : {}),
      };
      const added = await apiFetch<ConnectionView>("/api/connections", { method: "POST", body: JSON.stringify(body) });
      setId("");
      setApiKey("");
      onAdded(added);
    } catch (e) {
      setError(failureText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} data-testid="connection-form" className="mt-3 grid gap-3 sm:grid-cols-2">
      <label className="text-sm" htmlFor={`${ids}-kind`}>
        Kind
        <select
          id={`${ids}-kind`}
          data-testid="connection-kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as typeof kind)}
          className={field}
        >
          {KINDS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm" htmlFor={`${ids}-id`}>
        Name (models are chosen as name/model)
        <input
          id={`${ids}-id`}
          data-testid="connection-id"
          required
          value={id}
          placeholder="home-ollama"
          onChange={(e) => setId(e.target.value)}
          className={field}
        />
      </label>
      <label className="text-sm" htmlFor={`${ids}-url`}>
        URL {kind === "openai-compatible" ? "" : "(empty: the provider's own)"}
        <input
          id={`${ids}-url`}
          data-testid="connection-url"
          type="url"
          required={kind === "openai-compatible"}
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
          className={field}
        />
      </label>
      <label className="text-sm" htmlFor={`${ids}-key`}>
        Key {kind === "openai-compatible" ? "(if the server needs one)" : ""}
        <input
          id={`${ids}-key`}
          data-testid="connection-key"
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          className={field}
        />
      </label>
      <div className="flex items-center gap-3 sm:col-span-2">
        <button type="submit" data-testid="connection-add" disabled={busy} className={primary}>
          {busy ? "Testing…" : "Test and add"}
        </button>
        {error && (
          <p role="alert" data-testid="connection-form-error" className="text-sm text-danger">
            {error}
          </p>
        )}
      </div>
    </form>
  );
}
