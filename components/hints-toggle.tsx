"use client";
// Shows or hides every hint chip in the transcript (the hints stay in the model's context either way).
import { useUiStore } from "@/lib/stores/ui-store";
import { EyeIcon } from "./ui/icons";

export function HintsToggle() {
  const showHints = useUiStore((s) => s.showHints);
  const toggleHints = useUiStore((s) => s.toggleHints);
  return (
    <button
      type="button"
      data-testid="toggle-hints"
      aria-pressed={showHints}
      onClick={toggleHints}
      title={
        showHints
          ? "Hide the hints the model was given (they stay in its context)"
          : "Show the hints the model was given"
      }
      className={`flex shrink-0 items-center gap-1.5 rounded-lg px-2 py-2 text-xs font-medium whitespace-nowrap hover:bg-chip ${showHints ? "text-fg" : "text-muted"}`}
    >
      <EyeIcon />
      <span>Hints</span>
    </button>
  );
}
