"use client";
// Above the composer: each subagent that ended while the person watched, in words ("“summarise the notes” finished"),
// as it happens — not at their next message. Open shows its transcript; × dismisses the notice. The list is a live
// region, so a screen reader says it too.
import { useAgentsStore } from "@/lib/stores/agents-store";
import { CloseIcon } from "../ui/icons";

export function AgentEndNotices({ conversationId }: { conversationId: string }) {
  const mine = useAgentsStore((s) => s.conversationId === conversationId);
  const ended = useAgentsStore((s) => s.ended);
  const open = useAgentsStore((s) => s.open);
  const dismiss = useAgentsStore((s) => s.dismiss);
  const shown = mine ? ended : [];
  return (
    <div role="status" className="mx-auto w-full max-w-3xl px-3 sm:px-6">
      {shown.length > 0 && (
        <ul data-testid="agent-end-notices" aria-label="Subagents that ended" className="mb-2 flex flex-wrap gap-2">
          {shown.map((notice) => (
            <li
              key={notice.conversationId}
              data-testid="agent-end-notice"
              className="flex max-w-full items-center gap-1 rounded-full border border-border bg-chip/60 py-0.5 pr-1 pl-3 text-xs"
            >
              <span className="truncate" title={notice.text}>
                {notice.text}
              </span>
              <button
                type="button"
                data-testid="agent-end-open"
                className="shrink-0 rounded-full px-1.5 font-medium text-accent hover:bg-chip"
                onClick={() => open(notice.conversationId)}
              >
                Open<span className="sr-only"> its transcript</span>
              </button>
              <button
                type="button"
                data-testid="agent-end-dismiss"
                aria-label={`Dismiss: ${notice.text}`}
                className="shrink-0 rounded-full p-1 text-muted hover:bg-chip hover:text-fg"
                onClick={() => dismiss(notice.conversationId)}
              >
                <CloseIcon width={12} height={12} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
