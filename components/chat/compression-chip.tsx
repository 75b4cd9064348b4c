"use client";
// Where the context was compressed: a divider chip ("Context compressed · 41k → 6k tokens") that expands to the
// summary, its evidence ledger (the identifiers kept verbatim) and what the ledger's bound dropped — each of those
// can be pinned back: it joins the ledger at the next compression — and the durable facts it kept in the workspace's
// memory, each with an Undo. A compression that could not get under the trigger says below it what fills the window.
import { useState } from "react";
import type { CompressionData, LedgerItem } from "@/lib/chat-message";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { useTasksStore } from "@/lib/stores/tasks-store";
import { shortTokens } from "../context/meter-math";
import { CompressionMemoryFacts, rememberedLabel } from "./compression-memory";
import { CompressionStuckNotice } from "./compression-stuck-notice";

const keyOf = (item: LedgerItem) => `${item.kind}:${item.value}`;
const detailsCount = (n: number) => `${n} detail${n === 1 ? "" : "s"}`;

/**
 * The summary as a person reads it. The transcript the summariser read had Hintline's own tags escaped
 * (`&lt;current-time&gt;`, lib/agent/hints/neutralize-tags.ts), so a summary quotes them that way, and shown as text
 * the entities read literally. Shown as written here; the inspector keeps the exact text the model gets.
 */
export function readableSummary(summary: string): string {
  return summary.replace(/&lt;/g, "<").replace(/&gt;/g, ">");
}

function ItemLine({ item }: { item: LedgerItem }) {
  return (
    <>
      <span className="text-faint">{item.kind}</span> <code className="break-all text-fg">{item.value}</code>
      {item.context ? <span className="text-faint"> — {item.context}</span> : null}
    </>
  );
}

export function CompressionChip({ data }: { data: CompressionData }) {
  const [open, setOpen] = useState(false);
  const conversationId = useTasksStore((s) => s.conversationId);
  const [pinned, setPinned] = useState<Record<string, boolean>>({});
  const [error, setError] = useState<string | null>(null);
  const ledger = data.ledger ?? [];
  const dropped = data.dropped ?? [];

  const pin = async (item: LedgerItem) => {
    if (!conversationId) return;
    setError(null);
    try {
      await apiFetch(`/api/conversations/${conversationId}/compression/pins`, {
        method: "POST",
        body: JSON.stringify({ kind: item.kind, value: item.value }),
      });
      setPinned((p) => ({ ...p, [keyOf(item)]: true }));
    } catch (e) {
      setError(failureText(e));
    }
  };

  return (
    <div data-testid="compression-chip" className="flex flex-col items-center gap-1.5 py-1">
      <div className="flex w-full items-center gap-3">
        <div className="h-px flex-1 bg-border" />
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          className="rounded-full border border-border bg-chip/70 px-3 py-1 text-xs text-muted hover:text-fg"
        >
          Context compressed · {shortTokens(data.tokensBefore)} → {shortTokens(data.tokensAfter)} tokens
          {data.fallback ? " · truncated" : ""}
          {ledger.length ? ` · ${detailsCount(ledger.length)} kept word for word` : ""}
          {rememberedLabel(data.memory)}
        </button>
        <div className="h-px flex-1 bg-border" />
      </div>
      {data.stuck ? <CompressionStuckNotice stuck={data.stuck} /> : null}
      {open && (
        <div className="flex w-full flex-col gap-2">
          <pre
            data-testid="compression-summary"
            className="w-full overflow-x-auto rounded-lg border border-border bg-code px-3 py-2 font-mono text-xs whitespace-pre-wrap text-muted"
          >
            {readableSummary(data.summary)}
            {data.usage
              ? `\n\n(summary call: ${data.usage.inputTokens} in / ${data.usage.outputTokens} out tokens)`
              : ""}
          </pre>
          {data.memory ? <CompressionMemoryFacts memory={data.memory} /> : null}
          {ledger.length > 0 && (
            <section
              data-testid="compression-ledger"
              className="rounded-lg border border-border px-3 py-2 text-xs text-muted"
            >
              <h4 className="mb-1 font-medium text-fg">
                Kept word for word · {detailsCount(ledger.length)} (paths, commands, figures) saved with the summary
              </h4>
              <ul className="flex flex-col gap-0.5">
                {ledger.map((item) => (
                  <li key={keyOf(item)}>
                    <ItemLine item={item} />
                    {item.pinned ? <span className="text-faint"> · pinned</span> : null}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {dropped.length > 0 && (
            <section
              data-testid="compression-dropped"
              className="rounded-lg border border-border px-3 py-2 text-xs text-muted"
            >
              <h4 className="mb-1 font-medium text-fg">Left out · {detailsCount(dropped.length)} did not fit</h4>
              <ul className="flex flex-col gap-0.5">
                {dropped.map((item) => (
                  <li key={keyOf(item)} className="flex items-baseline justify-between gap-2">
                    <span>
                      <ItemLine item={item} />
                    </span>
                    {pinned[keyOf(item)] ? (
                      <span className="shrink-0 text-faint">Pinned · kept word for word at the next compression</span>
                    ) : (
                      <button
                        type="button"
                        onClick={() => pin(item)}
                        className="shrink-0 rounded border border-border px-1.5 hover:text-fg"
                        aria-label={`Pin ${item.value}`}
                      >
                        Pin
                      </button>
                    )}
                  </li>
                ))}
              </ul>
              {error ? (
                <p role="alert" className="mt-1 text-danger">
                  {error}
                </p>
              ) : null}
            </section>
          )}
        </div>
      )}
    </div>
  );
}
