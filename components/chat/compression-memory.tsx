"use client";
// The durable facts a compression kept in the workspace's memory, inside its chip: each with an Undo (the memory
// delete route), and what was left out — already remembered, the memory full, or the facts call failed.
import { useState } from "react";
import type { CompressionMemory } from "@/lib/chat-message";
import { ApiRequestError, apiFetch, failureText } from "@/lib/stores/api-client";

type Undo = "pending" | "undone" | "gone";

/** The chip's label words for it ("· 3 remembered"), or "" when nothing was kept. */
export const rememberedLabel = (memory: CompressionMemory | undefined) =>
  memory?.stored.length ? ` · ${memory.stored.length} remembered` : "";

export function CompressionMemoryFacts({ memory }: { memory: CompressionMemory }) {
  const [undo, setUndo] = useState<Record<string, Undo>>({});
  const [error, setError] = useState<string | null>(null);
  const skipped = [
    memory.duplicates ? `${memory.duplicates} already in memory` : "",
    memory.full ? `${memory.full} left out: the workspace memory is full` : "",
  ].filter(Boolean);

  const remove = async (id: string) => {
    setError(null);
    setUndo((u) => ({ ...u, [id]: "pending" }));
    try {
      await apiFetch(`/api/workspaces/${encodeURIComponent(memory.workspaceId)}/memory/${encodeURIComponent(id)}`, {
        method: "DELETE",
      });
      setUndo((u) => ({ ...u, [id]: "undone" }));
    } catch (e) {
      if (e instanceof ApiRequestError && e.status === 404) return setUndo((u) => ({ ...u, [id]: "gone" }));
      setUndo(({ [id]: _, ...rest }) => rest);
      setError(failureText(e));
    }
  };

  return (
    <section data-testid="compression-memory" className="rounded-lg border border-border px-3 py-2 text-xs text-muted">
      <h4 className="mb-1 font-medium text-fg">
        Remembered in the workspace · {memory.stored.length} durable {memory.stored.length === 1 ? "fact" : "facts"}
      </h4>
      {memory.failed ? (
        <p data-testid="compression-memory-failed">Proposing durable facts failed; nothing was remembered.</p>
      ) : null}
      {!memory.failed && memory.stored.length === 0 && skipped.length === 0 ? <p>Nothing durable to keep.</p> : null}
      {memory.stored.length > 0 && (
        <ul className="flex flex-col gap-0.5">
          {memory.stored.map((entry) => {
            const state = undo[entry.id];
            return (
              <li
                key={entry.id}
                data-testid="compression-memory-fact"
                data-entry-id={entry.id}
                data-undone={state === "undone" || state === "gone"}
                className="flex items-baseline justify-between gap-2"
              >
                <span
                  className={
                    state === "undone" || state === "gone"
                      ? "break-words text-faint line-through"
                      : "break-words text-fg"
                  }
                >
                  {entry.text}
                </span>
                {state === "undone" || state === "gone" ? (
                  <span data-testid="compression-memory-undone" className="shrink-0 text-faint">
                    {state === "undone" ? "Removed from memory" : "Already removed"}
                  </span>
                ) : (
                  <button
                    type="button"
                    data-testid="compression-memory-undo"
                    disabled={state === "pending"}
                    onClick={() => void remove(entry.id)}
                    className="shrink-0 rounded border border-border px-1.5 hover:text-fg disabled:opacity-50"
                    aria-label={`Undo remembering ${entry.text}`}
                  >
                    Undo
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {skipped.length > 0 && (
        <p data-testid="compression-memory-skipped" className="mt-1">
          Not stored: {skipped.join("; ")}.
        </p>
      )}
      {error ? (
        <p role="alert" className="mt-1 text-danger">
          {error}
        </p>
      ) : null}
    </section>
  );
}
