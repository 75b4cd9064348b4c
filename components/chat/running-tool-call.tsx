"use client";
// An MCP call that is running: how long it has run (counted from when this page saw it start), the progress its server
// last reported (when this tab streams the reply), and a Cancel for that call alone (POST /api/conversations/:id/tool-calls/:toolCallId/cancel, from any tab or instance); the reply goes on.
import { useParams } from "next/navigation";
import { useEffect, useState } from "react";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { progressText, useToolProgressStore } from "@/lib/stores/tool-progress-store";
import { conversationIdOf } from "./conversation-id";

export function RunningToolCall({ toolCallId }: { toolCallId: string }) {
  const params = useParams();
  const [seconds, setSeconds] = useState(0);
  const [state, setState] = useState<"running" | "cancelling">("running");
  const [error, setError] = useState<string | null>(null);
  const progress = progressText(useToolProgressStore((s) => s.byCall[toolCallId]));
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, []);
  const cancel = async () => {
    const id = conversationIdOf(params as Record<string, string | string[]> | null);
    if (!id) return setError("This conversation has no id yet; reload the page.");
    setError(null);
    setState("cancelling");
    try {
      await apiFetch(
        `/api/conversations/${encodeURIComponent(id)}/tool-calls/${encodeURIComponent(toolCallId)}/cancel`,
        { method: "POST" },
      );
    } catch (e) {
      setState("running");
      setError(failureText(e));
    }
  };
  return (
    <div data-testid="tool-running" className="mt-1 flex items-center gap-2 text-xs text-muted">
      <span data-testid="tool-elapsed" aria-live="off">
        Running · {seconds} s
      </span>
      {progress && (
        <span data-testid="tool-progress" aria-live="off" className="min-w-0 max-w-xs truncate" title={progress}>
          {progress}
        </span>
      )}
      <button
        type="button"
        data-testid="tool-cancel"
        disabled={state === "cancelling"}
        className="rounded-md border border-border px-2 py-0.5 hover:text-fg disabled:opacity-60"
        onClick={() => void cancel()}
      >
        {state === "cancelling" ? "Cancelling…" : "Cancel this call"}
      </button>
      {error && (
        <span role="alert" className="text-danger">
          {error}
        </span>
      )}
    </div>
  );
}
