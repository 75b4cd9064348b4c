"use client";
// A one-time note under the first hint chip on screen: what a reminder is. Dismissed once, it stays away (localStorage).
import { useEffect, useId } from "react";
import { create } from "zustand";
import { useUiStore } from "@/lib/stores/ui-store";

/** Which chip on screen carries the note: the first to ask for it, until it goes away. */
const useOwner = create<{ owner: string | null }>(() => ({ owner: null }));

export function useReminderExplainer(): boolean {
  const id = useId();
  const wanted = useUiStore((s) => s.hydrated && !s.remindersExplained);
  const owner = useOwner((s) => s.owner);
  useEffect(() => {
    if (!wanted) return;
    if (useOwner.getState().owner === null) useOwner.setState({ owner: id });
    return () => {
      if (useOwner.getState().owner === id) useOwner.setState({ owner: null });
    };
  }, [wanted, id]);
  return wanted && owner === id;
}

export function ReminderExplainer() {
  const dismiss = useUiStore((s) => s.dismissReminderExplainer);
  return (
    <aside
      data-testid="reminder-explainer"
      aria-label="What is a reminder?"
      className="flex max-w-xl flex-col gap-2 rounded-xl border border-border bg-panel px-3.5 py-2.5 text-xs leading-relaxed text-muted sm:flex-row sm:items-start"
    >
      <p className="flex-1">
        <span className="font-medium text-fg">What is this? </span>
        Hintline reminds the model of what it cannot know by itself — the time, your open tasks, how full its context is
        — with a short note added to what it reads. Each reminder shows as a chip like the one above, where the model
        got it; open a chip to read it word for word. Hide them all with “Hints” in the header.
      </p>
      <button
        type="button"
        data-testid="reminder-explainer-dismiss"
        onClick={dismiss}
        className="shrink-0 self-end rounded-lg border border-border bg-elevated px-2.5 py-1 font-medium text-fg hover:bg-chip sm:self-start"
      >
        Got it
      </button>
    </aside>
  );
}
