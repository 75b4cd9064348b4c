"use client";
// What a new conversation shows: what Hintline is and a few things to try.
import type { ModelInfo } from "@/lib/chat-message";

const SUGGESTIONS = ["What time is it?", "Write 150 words about rivers", "How full is your context?", "Hello!"];

export function EmptyState({ model, onPick }: { model: ModelInfo; onPick: (text: string) => void }) {
  return (
    <div data-testid="empty-state" className="flex min-h-0 flex-1 flex-col items-center justify-center overflow-y-auto px-6 py-10">
      <div className="w-full max-w-xl text-center">
        <h1 className="text-2xl font-semibold tracking-tight">What can I help with?</h1>
        <p className="mt-2 text-sm text-muted">
          {model.isDemo
            ? "You're talking to the offline demo model — rule-based, no network needed. Set OPENAI_API_KEY or OPENAI_BASE_URL to use a real one."
            : `Connected to ${model.id}.`}
        </p>
        <div className="mt-6 grid gap-2 sm:grid-cols-2">
          {SUGGESTIONS.map((s) => (
            <button
              key={s}
              type="button"
              data-testid="suggestion"
              onClick={() => onPick(s)}
              className="rounded-xl border border-border bg-elevated px-4 py-3 text-left text-sm transition hover:border-accent/50"
            >
              {s}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
