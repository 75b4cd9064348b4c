"use client";
// Editing a message of the person's in place: Save sends the new version (the old one and everything after it are
// kept as a branch, reachable with ‹ n/N ›); Esc or Cancel leaves everything as it was.
import { useState } from "react";

export function EditMessage({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(initial);
  const changed = text.trim().length > 0 && text !== initial;
  return (
    <form
      data-testid="edit-message"
      className="flex w-full max-w-[85%] flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (changed) onSave(text.trim());
      }}
    >
      <textarea
        aria-label="Edit your message"
        data-testid="edit-message-input"
        value={text}
        rows={Math.min(10, Math.max(2, text.split("\n").length))}
        autoFocus
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onCancel();
          if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            if (changed) onSave(text.trim());
          }
        }}
        className="w-full resize-y rounded-2xl border border-border bg-elevated px-4 py-2.5 outline-none focus:border-accent"
      />
      <div className="flex justify-end gap-2 text-sm">
        <button type="button" onClick={onCancel} className="rounded-lg px-3 py-1 text-muted hover:bg-chip">
          Cancel
        </button>
        <button
          type="submit"
          data-testid="edit-message-save"
          disabled={!changed}
          className="rounded-lg bg-accent px-3 py-1 font-medium text-accent-fg disabled:opacity-50"
        >
          Save and send
        </button>
      </div>
      <p className="text-right text-xs text-muted">
        The earlier version and its replies stay reachable with ‹ › under the message.
      </p>
    </form>
  );
}
