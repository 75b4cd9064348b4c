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
      title={showHints ? "Hide system hints" : "Show system hints"}
      className={`rounded-lg p-2 hover:bg-chip ${showHints ? "text-fg" : "text-faint line-through"}`}
    >
      <EyeIcon />
      <span className="sr-only">{showHints ? "Hide system hints" : "Show system hints"}</span>
    </button>
  );
}
