"use client";
// The message box: Enter sends, Shift+Enter breaks the line, Esc stops a streaming reply, Shift+Tab switches between
// plan and build mode (the toggle beside the box does the same).
import { useEffect, useRef, useState } from "react";
import type { ConversationMode } from "@/lib/agent/plan-mode";
import { PlanIcon, SendIcon, StopIcon } from "../ui/icons";

export const MAX_MESSAGE_CHARS = 100_000;

export function Composer({
  busy,
  onSend,
  onStop,
  mode = "build",
  onToggleMode,
}: {
  busy: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  mode?: ConversationMode;
  onToggleMode?: () => void;
}) {
  const [text, setText] = useState("");
  const ref = useRef<HTMLTextAreaElement>(null);
  const tooLong = text.length > MAX_MESSAGE_CHARS;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the box grows with the text it holds
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`;
  }, [text]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Shift+Esc focuses the box, and an Esc that closed a dialog was for the dialog.
      if (e.key === "Escape" && !e.shiftKey && !e.defaultPrevented && busy) onStop();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [busy, onStop]);

  const submit = () => {
    if (busy || tooLong || !text.trim()) return;
    onSend(text);
    setText("");
  };

  return (
    <form
      className="mx-auto w-full max-w-3xl px-3 pb-3 sm:px-6 sm:pb-5"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="flex items-end gap-2 rounded-2xl border border-border bg-elevated p-2 shadow-sm focus-within:border-accent/60">
        {onToggleMode && (
          <button
            type="button"
            data-testid="mode-toggle"
            data-mode={mode}
            aria-pressed={mode === "plan"}
            onClick={onToggleMode}
            title={mode === "plan" ? "Plan mode (read-only): switch to build (Shift+Tab)" : "Build mode: switch to plan (Shift+Tab)"}
            className={`flex h-9 shrink-0 items-center gap-1 rounded-xl border px-2.5 text-xs font-medium ${
              mode === "plan" ? "border-accent/60 bg-accent/15 text-fg" : "border-border text-muted hover:bg-chip"
            }`}
          >
            <PlanIcon width={14} height={14} />
            {mode === "plan" ? "Plan" : "Build"}
          </button>
        )}
        <textarea
          ref={ref}
          data-testid="composer-input"
          aria-label="Message"
          rows={1}
          autoFocus
          value={text}
          placeholder="Message Hintline…"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            } else if (e.key === "Tab" && e.shiftKey && onToggleMode && !e.altKey && !e.ctrlKey && !e.metaKey) {
              e.preventDefault();
              onToggleMode();
            }
          }}
          className="max-h-60 min-h-[2.5rem] flex-1 resize-none bg-transparent px-2 py-2 outline-none placeholder:text-faint"
        />
        {busy ? (
          <button
            type="button"
            data-testid="stop-button"
            onClick={onStop}
            aria-label="Stop (Esc)"
            title="Stop (Esc)"
            className="flex size-9 shrink-0 items-center justify-center rounded-xl bg-fg text-bg"
          >
            <StopIcon />
          </button>
        ) : (
          <button
            type="submit"
            data-testid="send-button"
            disabled={!text.trim() || tooLong}
            aria-label="Send (Enter)"
            title="Send (Enter)"
            className="flex size-9 shrink-0 items-center justify-center rounded-xl bg-accent text-accent-fg disabled:opacity-40"
          >
            <SendIcon />
          </button>
        )}
      </div>
      <p className="mt-1.5 hidden px-2 text-center text-[11px] text-faint sm:block">
        Enter to send · Shift+Enter for a new line · Shift+Tab plan/build mode · Esc to stop
      </p>
      {tooLong && (
        <p className="mt-1 px-2 text-xs text-danger">
          This message is over the {MAX_MESSAGE_CHARS.toLocaleString()}-character limit.
        </p>
      )}
    </form>
  );
}
