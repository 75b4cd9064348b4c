"use client";
// ‹ n/N › under a person's message that has alternatives (an earlier version was edited), or under a regenerated
// reply (its earlier versions): the arrows switch to the previous or next one; the model sees only the one shown.
import type { BranchPoint } from "@/lib/agent/branches";

const ARROW =
  "rounded-md px-1.5 py-0.5 text-xs text-muted hover:bg-chip hover:text-fg disabled:opacity-40 disabled:hover:bg-transparent";

export function BranchSwitcher({
  point,
  busy,
  onSwitch,
}: {
  point: BranchPoint;
  busy: boolean;
  onSwitch: (anchorId: string, ordinal: number) => void;
}) {
  const { index, count, ordinals, anchorId } = point;
  const go = (to: number) => onSwitch(anchorId, ordinals[to - 1]!);
  return (
    <nav
      data-testid="branch-switcher"
      aria-label="Versions of this message"
      className="flex items-center gap-0.5 text-xs text-muted"
    >
      <button
        type="button"
        data-testid="branch-previous"
        aria-label={`Previous version (${index} of ${count})`}
        disabled={busy || index <= 1}
        onClick={() => go(index - 1)}
        className={ARROW}
      >
        ‹
      </button>
      <span data-testid="branch-position" aria-live="polite">
        {index}/{count}
      </span>
      <button
        type="button"
        data-testid="branch-next"
        aria-label={`Next version (${index} of ${count})`}
        disabled={busy || index >= count}
        onClick={() => go(index + 1)}
        className={ARROW}
      >
        ›
      </button>
    </nav>
  );
}
