"use client";
// A hint, drawn where the model received it: a small muted pill that says in plain words what the model was told
// ("Time update 14:05", "Context 73 % full") and expands to the raw text.
import { useState } from "react";
import type { HintData } from "@/lib/chat-message";
import { ChecklistIcon, ClockIcon, FolderIcon, GaugeIcon, PlanIcon, SendIcon, TagIcon } from "../ui/icons";
import { type HintKind, summarizeHint } from "./hint-summary";
import { ReminderExplainer, useReminderExplainer } from "./reminder-explainer";
import { UseNewTools } from "./use-new-tools";

const ICONS: Record<HintKind, typeof ClockIcon> = {
  time: ClockIcon,
  tasks: ChecklistIcon,
  context: GaugeIcon,
  custom: TagIcon,
  mode: PlanIcon,
  workspace: FolderIcon,
  continue: SendIcon,
  steps: GaugeIcon,
  agents: SendIcon,
  state: TagIcon,
};

export function HintChip({ data, contextWindow }: { data: HintData; contextWindow?: number }) {
  const [open, setOpen] = useState(false);
  const explain = useReminderExplainer();
  const items = summarizeHint(data, { contextWindow });
  const source = [data.source?.label, data.source?.sublabel].filter(Boolean).join(" · ");
  return (
    <>
      <div
        data-testid="hint-chip"
        data-superseded={data.superseded ? "true" : undefined}
        className={`flex flex-col items-start ${data.superseded ? "opacity-60" : ""}`}
      >
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          title={
            data.imported
              ? "Imported with the conversation; the model did not receive it"
              : data.superseded
                ? "Sent as the last message of its model call, then replaced by a newer status: later calls do not carry it"
                : "A reminder: what the model was told at this point"
          }
          className="inline-flex max-w-full items-center gap-2 rounded-full border border-chip-border bg-chip/70 px-3 py-1 text-xs text-chip-fg transition hover:text-fg"
        >
          {items.map((item, i) => {
            const Icon = ICONS[item.kind];
            return (
              <span key={i} className="inline-flex min-w-0 items-center gap-1" data-kind={item.kind}>
                {i > 0 && (
                  <span aria-hidden="true" className="pr-1">
                    ·
                  </span>
                )}
                <Icon width={12} height={12} className="shrink-0" />
                <span className="shrink-0 font-medium whitespace-nowrap text-fg/80">
                  {item.label}
                  {item.kind === "custom" && item.detail ? ":" : ""}
                </span>
                {item.detail && <span className="truncate"> {item.detail}</span>}
              </span>
            );
          })}
          {data.imported && (
            <span
              data-testid="hint-imported"
              className="shrink-0 rounded-full border border-border px-1.5 whitespace-nowrap"
            >
              Imported
            </span>
          )}
          {data.superseded && (
            <span
              data-testid="hint-superseded"
              className="shrink-0 rounded-full border border-border px-1.5 whitespace-nowrap line-through decoration-muted/60"
            >
              superseded
            </span>
          )}
          {/* Who the settings say the reminder is from; read out with the chip, shown when it is open. */}
          <span data-testid="hint-source" className="sr-only">
            {source}
          </span>
        </button>
        {data.fields?.mcpTools !== undefined && !data.imported && <UseNewTools />}
        {open && (
          <div className="mt-1.5 w-full max-w-full">
            <p className="mb-1 text-xs text-muted">
              Reminder from <span className="font-medium text-fg/80">{source || "Hintline"}</span>, word for word as the
              model read it:
            </p>
            <pre
              data-testid="hint-text"
              className="max-w-full overflow-x-auto rounded-lg border border-border bg-code px-3 py-2 font-mono text-xs leading-relaxed whitespace-pre-wrap text-muted"
            >
              {data.text}
            </pre>
          </div>
        )}
      </div>
      {explain && <ReminderExplainer />}
    </>
  );
}
