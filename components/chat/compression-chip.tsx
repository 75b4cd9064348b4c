"use client";
// Where the context was compressed: a divider chip ("Context compressed · 41k → 6k tokens") that expands to the summary.
import { useState } from "react";
import type { CompressionData } from "@/lib/chat-message";
import { shortTokens } from "../context/meter-math";

export function CompressionChip({ data }: { data: CompressionData }) {
  const [open, setOpen] = useState(false);
  return (
    <div data-testid="compression-chip" className="flex flex-col items-center gap-1.5 py-1">
      <div className="flex w-full items-center gap-3">
        <div className="h-px flex-1 bg-border" />
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="rounded-full border border-border bg-chip/70 px-3 py-1 text-xs text-muted hover:text-fg">
          Context compressed · {shortTokens(data.tokensBefore)} → {shortTokens(data.tokensAfter)} tokens
          {data.fallback ? " · truncated" : ""}
        </button>
        <div className="h-px flex-1 bg-border" />
      </div>
      {open && (
        <pre data-testid="compression-summary" className="w-full overflow-x-auto rounded-lg border border-border bg-code px-3 py-2 font-mono text-xs whitespace-pre-wrap text-muted">
          {data.summary}
          {data.usage ? `\n\n(summary call: ${data.usage.inputTokens} in / ${data.usage.outputTokens} out tokens)` : ""}
        </pre>
      )}
    </div>
  );
}
