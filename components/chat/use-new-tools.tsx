"use client";
// Under a Workspace hint that says the workspace's MCP tools changed: "Use the new tools now" makes the conversation's
// tool list again (POST /api/conversations/:id/mcp-tools/refresh), so the next model call offers it — one cache
// break, by choice; otherwise they arrive at the next compression.
import { useParams } from "next/navigation";
import { useState } from "react";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { conversationIdOf } from "./conversation-id";

type Refreshed = { changed: boolean; tools: string[]; leftOut?: number };

export function UseNewTools() {
  const params = useParams();
  const [state, setState] = useState<"idle" | "working" | Refreshed>("idle");
  const [error, setError] = useState<string | null>(null);
  const refresh = async () => {
    const id = conversationIdOf(params as Record<string, string | string[]> | null);
    if (!id) return setError("This conversation has no id yet; reload the page.");
    setError(null);
    setState("working");
    try {
      setState(
        await apiFetch<Refreshed>(`/api/conversations/${encodeURIComponent(id)}/mcp-tools/refresh`, { method: "POST" }),
      );
    } catch (e) {
      setState("idle");
      setError(failureText(e));
    }
  };
  const done = typeof state === "object" ? state : null;
  return (
    <div data-testid="use-new-tools" className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted">
      {done ? (
        <span role="status" data-testid="use-new-tools-done">
          {done.changed
            ? `The next reply uses the tools as they are now (${done.tools.length} MCP tool${done.tools.length === 1 ? "" : "s"}${done.leftOut ? `; ${done.leftOut} left out, as the workspace's MCP settings say why` : ""}).`
            : "The conversation already uses the tools as they are now."}
        </span>
      ) : (
        <button
          type="button"
          data-testid="use-new-tools-button"
          disabled={state === "working"}
          title="Takes the tools in now: the provider's cache is rebuilt once. Without it they arrive at the next compression."
          className="rounded-md border border-border px-2 py-0.5 hover:text-fg disabled:opacity-60"
          onClick={() => void refresh()}
        >
          {state === "working" ? "Connecting…" : "Use the new tools now"}
        </button>
      )}
      {error && (
        <span role="alert" className="text-danger">
          {error}
        </span>
      )}
    </div>
  );
}
