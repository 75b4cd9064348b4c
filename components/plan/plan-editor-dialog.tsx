"use client";
// The plan's editor: a roomy dialog over the page (Radix: modal, Esc cancels, focus returns to the Edit button), so a
// plan of a few dozen lines is edited at a readable size rather than in a box the width of the side panel.
import * as Dialog from "@radix-ui/react-dialog";
import { PLAN_MAX_CHARS } from "@/lib/agent/plan-mode";
import { useReturnFocus } from "../ui/drawer";

export function PlanEditorDialog({
  draft,
  onDraft,
  busy,
  error,
  canApprove,
  onSave,
  onApprove,
}: {
  /** The text being edited; null when the editor is closed. */
  draft: string | null;
  onDraft: (draft: string | null) => void;
  busy: boolean;
  error: string | null;
  canApprove: boolean;
  onSave: (text: string) => void;
  onApprove: (text: string) => void;
}) {
  const returnFocus = useReturnFocus();
  const text = draft ?? "";
  const tooLong = text.length > PLAN_MAX_CHARS;
  const blocked = busy || tooLong || !text.trim();
  return (
    <Dialog.Root open={draft !== null} onOpenChange={(open) => !open && onDraft(null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          data-testid="plan-editor-dialog"
          aria-modal="true"
          aria-describedby={undefined}
          {...returnFocus}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-3xl -translate-x-1/2 -translate-y-1/2 flex-col gap-3 rounded-2xl border border-border bg-elevated p-5 shadow-2xl outline-none"
        >
          <div className="flex items-baseline justify-between gap-3">
            <Dialog.Title className="font-semibold">Edit the plan</Dialog.Title>
            <span data-testid="plan-editor-count" className={`text-xs ${tooLong ? "text-danger" : "text-muted"}`}>
              {text.length.toLocaleString()} / {PLAN_MAX_CHARS.toLocaleString()} characters
            </span>
          </div>
          <textarea
            data-testid="plan-editor"
            aria-label="The plan (Markdown)"
            autoFocus
            value={text}
            onChange={(e) => onDraft(e.target.value)}
            className="h-[60dvh] min-h-48 w-full resize-y rounded-lg border border-border bg-bg px-3 py-2 font-mono text-sm leading-relaxed outline-none focus:border-accent/60"
          />
          {tooLong && (
            <p className="text-xs text-danger">
              The plan is over its {PLAN_MAX_CHARS.toLocaleString()}-character limit.
            </p>
          )}
          {error && (
            <p role="alert" className="text-xs text-danger">
              {error}
            </p>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <button
              type="button"
              data-testid="plan-save"
              disabled={blocked}
              onClick={() => onSave(text)}
              className="rounded-lg border border-border px-3 py-1.5 text-sm hover:bg-chip disabled:opacity-40"
            >
              Save
            </button>
            <Dialog.Close data-testid="plan-cancel" className="rounded-lg px-3 py-1.5 text-sm text-muted hover:bg-chip">
              Cancel
            </Dialog.Close>
            {canApprove && (
              <button
                type="button"
                data-testid="plan-approve"
                disabled={blocked}
                onClick={() => onApprove(text)}
                className="ml-auto rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-accent-fg disabled:opacity-40"
              >
                Save, approve and build
              </button>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
