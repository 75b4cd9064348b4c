"use client";
// The buttons under a message, always visible (touch screens have no hover) and labelled: Copy on every message;
// on the last reply, Regenerate, and Continue when it was stopped before its end.
import { useState } from "react";
import { CopyIcon, PencilIcon, RetryIcon, SendIcon } from "../ui/icons";

export type ReplyActions = { onRegenerate?: () => void; onContinue?: () => void; onEdit?: () => void };

const BUTTON = "flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs text-muted hover:bg-chip hover:text-fg";

export function MessageActions({
  text,
  who,
  actions,
  align = "start",
}: {
  text: string;
  who: "your" | "the reply's";
  actions?: ReplyActions;
  align?: "start" | "end";
}) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };
  return (
    <div data-testid="message-actions" className={`flex gap-1 ${align === "end" ? "justify-end" : ""}`}>
      {text.length > 0 && (
        <button
          type="button"
          data-testid="copy-message"
          aria-label={copied ? "Copied" : `Copy ${who} message`}
          onClick={copy}
          className={BUTTON}
        >
          <CopyIcon width={13} height={13} />
          <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
        </button>
      )}
      {actions?.onEdit && (
        <button
          type="button"
          data-testid="edit-message-button"
          aria-label="Edit your message"
          onClick={actions.onEdit}
          className={BUTTON}
        >
          <PencilIcon width={13} height={13} />
          Edit
        </button>
      )}
      {actions?.onRegenerate && (
        <button
          type="button"
          data-testid="regenerate"
          aria-label="Regenerate this reply"
          onClick={actions.onRegenerate}
          className={BUTTON}
        >
          <RetryIcon width={13} height={13} />
          Regenerate
        </button>
      )}
      {actions?.onContinue && (
        <button
          type="button"
          data-testid="continue"
          aria-label="Continue this reply from where it stopped"
          onClick={actions.onContinue}
          className={BUTTON}
        >
          <SendIcon width={13} height={13} />
          Continue
        </button>
      )}
    </div>
  );
}
