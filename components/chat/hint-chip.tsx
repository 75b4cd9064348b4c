"use client";
// A hint, drawn where the model received it: a small muted pill that summarises it and expands to the raw text.
import { useState } from "react";
import type { HintData } from "@/lib/chat-message";
import { ChecklistIcon, ClockIcon, FolderIcon, GaugeIcon, PlanIcon, TagIcon } from "../ui/icons";
import { type HintKind, summarizeHint } from "./hint-summary";

const ICONS: Record<HintKind, typeof ClockIcon> = { time: ClockIcon, tasks: ChecklistIcon, context: GaugeIcon, custom: TagIcon, mode: PlanIcon, workspace: FolderIcon };

export function HintChip({ data, contextWindow }: { data: HintData; contextWindow?: number }) {
  const [open, setOpen] = useState(false);
  const items = summarizeHint(data, { contextWindow });
  const source = [data.source?.label, data.source?.sublabel].filter(Boolean).join(" · ");
  return (
    <div data-testid="hint-chip" data-superseded={data.superseded ? "true" : undefined} className={`flex flex-col items-start ${data.superseded ? "opacity-60" : ""}`}>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        title={
          data.imported
            ? "Imported with the conversation; the model did not receive it"
            : data.superseded
              ? "Sent as the last message of its model call, then replaced by a newer status: later calls do not carry it"
              : "What the model was told at this point"
        }
        className="inline-flex max-w-full items-center gap-2 rounded-full border border-border bg-chip/70 px-3 py-1 text-xs text-muted transition hover:text-fg"
      >
        <span data-testid="hint-source" className="shrink-0 font-medium whitespace-nowrap text-fg/70">
          {source}
        </span>
        {data.imported && (
          <span data-testid="hint-imported" className="shrink-0 rounded-full border border-border px-1.5 whitespace-nowrap text-faint">
            Imported
          </span>
        )}
        {data.superseded && (
          <span data-testid="hint-superseded" className="shrink-0 rounded-full border border-border px-1.5 whitespace-nowrap text-faint line-through decoration-faint/60">
            superseded
          </span>
        )}
        {items.map((item, i) => {
          const Icon = ICONS[item.kind];
          return (
            <span key={i} className="inline-flex min-w-0 items-center gap-1" data-kind={item.kind}>
              <span aria-hidden="true" className="text-faint">
                ·
              </span>
              <Icon width={12} height={12} />
              <span className="truncate">{item.label}</span>
            </span>
          );
        })}
      </button>
      {open && (
        <pre
          data-testid="hint-text"
          className="mt-1.5 max-w-full overflow-x-auto rounded-lg border border-border bg-code px-3 py-2 font-mono text-xs leading-relaxed whitespace-pre-wrap text-muted"
        >
          {data.text}
        </pre>
      )}
    </div>
  );
}
