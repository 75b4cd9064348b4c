"use client";
// What a new conversation shows: what Hintline is and a first message for each kind of hint, with what to watch for.
// Every suggestion gets a real answer from the demo model (lib/ai/demo-model.ts).
import type { ModelInfo } from "@/lib/chat-message";
import { useWordsFor } from "../operator-words";
import { DEMO_MODEL_WORDS } from "../operator-screen-words";
import { ChecklistIcon, ClockIcon, GaugeIcon, PencilIcon } from "../ui/icons";

type Kind = "time" | "tasks" | "panel" | "context";

const KINDS: Record<Kind, { label: string; Icon: typeof ClockIcon }> = {
  time: { label: "Time hint", Icon: ClockIcon },
  tasks: { label: "Tasks", Icon: ChecklistIcon },
  panel: { label: "Your panel edit", Icon: PencilIcon },
  context: { label: "Context", Icon: GaugeIcon },
};

/** The README's "Try" list is the same (keep them together). */
export const SUGGESTIONS: ReadonlyArray<{ text: string; kinds: Kind[]; watch: string }> = [
  {
    text: "What time is it?",
    kinds: ["time"],
    watch: "The agent answers from the time hint on your message: the clock chip.",
  },
  {
    text: "Add tasks: pack the boxes; book a van; label the kitchen",
    kinds: ["tasks", "panel"],
    watch:
      "Real tool calls fill the side panel. Tick one off there, then ask “what's next?”: your edit reaches the agent.",
  },
  {
    text: "How full is your context?",
    kinds: ["context"],
    watch: "The answer gives the figure the context meter shows.",
  },
  {
    text: "Write 300 words about rivers",
    kinds: ["context"],
    watch: "Watch the meter fill; near the limit a context hint arrives, then compression.",
  },
];

export function EmptyState({ model, onPick }: { model: ModelInfo; onPick: (text: string) => void }) {
  const wordsFor = useWordsFor();
  return (
    <div
      data-testid="empty-state"
      className="flex min-h-0 flex-1 flex-col items-center justify-center overflow-y-auto px-6 py-10"
    >
      <div className="w-full max-w-xl text-center">
        <h1 className="text-2xl font-semibold tracking-tight">What can I help with?</h1>
        <p className="mt-2 text-sm text-muted">
          {model.isDemo ? wordsFor(DEMO_MODEL_WORDS) : `Connected to ${model.id}.`}
        </p>
        <div className="mt-6 grid gap-2 sm:grid-cols-2">
          {SUGGESTIONS.map((s) => (
            <button
              key={s.text}
              type="button"
              data-testid="suggestion"
              data-kinds={s.kinds.join(" ")}
              onClick={() => onPick(s.text)}
              className="flex flex-col gap-1.5 rounded-xl border border-border bg-elevated px-4 py-3 text-left text-sm transition hover:border-accent/50"
            >
              <span data-testid="suggestion-text">{s.text}</span>
              <span className="flex flex-wrap gap-1">
                {s.kinds.map((kind) => {
                  const { label, Icon } = KINDS[kind];
                  return (
                    <span
                      key={kind}
                      data-kind={kind}
                      className="inline-flex items-center gap-1 rounded-full bg-chip px-2 py-0.5 text-xs text-chip-fg"
                    >
                      <Icon width={11} height={11} />
                      {label}
                    </span>
                  );
                })}
              </span>
              <span className="text-xs text-muted">{s.watch}</span>
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
