"use client";
// The message box: Enter sends, Shift+Enter breaks the line, Esc stops a streaming reply; Tab and Shift+Tab move the
// focus as anywhere else. While a reply runs, Enter queues the message as the next turn and Ctrl+Enter (⌘+Enter)
// steers: the agent reads it after its current step (both said beside the box, with a button each). The toggle beside the box switches between plan and build mode (so does Alt+Shift+P, from
// anywhere on the page: the chat listens for it). Files are attached by the paperclip button, by dropping them on the
// box or by pasting them; they wait as chips (Remove) until the message is sent.
import { type ClipboardEvent, type DragEvent, useEffect, useRef, useState } from "react";
import type { ConversationMode } from "@/lib/agent/plan-mode";
import { MODE_SHORTCUT } from "../shortcuts/shortcuts";
import { PaperclipIcon, PlanIcon, SendIcon, StopIcon } from "../ui/icons";
import { PendingChips } from "./attachment-chips";
import { ACCEPT, type PendingAttachment, readAttachments } from "./attachment-files";

export type OutgoingFile = { type: "file"; mediaType: string; filename: string; url: string };

export const MAX_MESSAGE_CHARS = 100_000;

/** The key that steers a running reply (Enter alone queues): Ctrl+Enter, or ⌘+Enter on a Mac. */
export const STEER_KEYS = "Control+Enter Meta+Enter";
const STEER_LABEL = "Ctrl+Enter";

export type QueueWhen = "next-step" | "after-reply";

export function Composer({
  busy,
  onSend,
  onQueue,
  onStop,
  mode = "build",
  onToggleMode,
}: {
  busy: boolean;
  onSend: (text: string, files?: OutgoingFile[]) => void;
  /** While a reply runs: queue the message as the next turn, or steer the reply with it. */
  onQueue?: (text: string, files: OutgoingFile[], when: QueueWhen) => void;
  onStop: () => void;
  mode?: ConversationMode;
  onToggleMode?: () => void;
}) {
  const [text, setText] = useState("");
  const [pending, setPending] = useState<PendingAttachment[]>([]);
  const [attachErrors, setAttachErrors] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);

  const attach = async (files: readonly File[]) => {
    if (!files.length) return;
    const { added, errors } = await readAttachments(files, pending.length);
    setPending((current) => [...current, ...added]);
    setAttachErrors(errors);
  };
  // The file input exists only while the file picker is open (it is not part of the page's first DOM).
  const pickFiles = () => {
    picker.current?.remove();
    const input = document.createElement("input");
    Object.assign(input, { type: "file", multiple: true, accept: ACCEPT, hidden: true, tabIndex: -1 });
    input.dataset.testid = "attach-input";
    input.setAttribute("aria-hidden", "true");
    const done = () => {
      input.remove();
      if (picker.current === input) picker.current = null;
    };
    input.addEventListener("change", () => {
      const files = [...(input.files ?? [])];
      done();
      void attach(files);
    });
    input.addEventListener("cancel", done);
    document.body.append(input);
    picker.current = input;
    input.click();
  };
  useEffect(() => () => picker.current?.remove(), []);
  const onDrop = (e: DragEvent) => {
    if (!e.dataTransfer.types.includes("Files")) return;
    e.preventDefault();
    setDragging(false);
    void attach([...e.dataTransfer.files]);
  };
  const onPaste = (e: ClipboardEvent) => {
    const files = [...e.clipboardData.files];
    if (!files.length) return;
    e.preventDefault();
    void attach(files);
  };
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

  const queueing = busy && onQueue !== undefined;
  /** Sends the message, or while a reply runs queues it (`when`: the next turn, or the running reply's next step). */
  const submit = (when: QueueWhen = "after-reply") => {
    if ((busy && !onQueue) || tooLong || !text.trim()) return;
    const files = pending.map(({ mediaType, filename, url }) => ({ type: "file" as const, mediaType, filename, url }));
    if (busy) onQueue?.(text, files, when);
    else onSend(text, files);
    setText("");
    setPending([]);
    setAttachErrors([]);
  };

  return (
    <form
      className="mx-auto w-full max-w-3xl px-3 pb-3 sm:px-6 sm:pb-5"
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes("Files")) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div
        data-testid="composer-dropzone"
        data-dragging={dragging || undefined}
        className={`rounded-2xl border bg-elevated p-2 shadow-sm focus-within:border-accent/60 ${dragging ? "border-accent border-dashed" : "border-border"}`}
      >
        <PendingChips
          items={pending}
          onRemove={(key) => setPending((current) => current.filter((p) => p.key !== key))}
        />
        <div className="flex items-end gap-2">
          <button
            type="button"
            data-testid="attach-button"
            onClick={pickFiles}
            aria-label="Attach files (images, PDFs, text)"
            title="Attach files: images, PDFs, text — or drop or paste them here"
            className="flex size-9 shrink-0 items-center justify-center rounded-xl text-muted hover:bg-chip hover:text-fg"
          >
            <PaperclipIcon width={18} height={18} />
          </button>
          {onToggleMode && (
            <button
              type="button"
              data-testid="mode-toggle"
              data-mode={mode}
              aria-pressed={mode === "plan"}
              aria-keyshortcuts={MODE_SHORTCUT}
              onClick={onToggleMode}
              title={
                mode === "plan"
                  ? `Plan mode (read-only): switch to build (${MODE_SHORTCUT})`
                  : `Build mode: switch to plan (${MODE_SHORTCUT})`
              }
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
            onPaste={onPaste}
            aria-keyshortcuts={queueing ? `Enter ${STEER_KEYS}` : "Enter"}
            aria-describedby="composer-keys"
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                submit(e.ctrlKey || e.metaKey ? "next-step" : "after-reply");
              }
            }}
            className="max-h-60 min-h-[2.5rem] flex-1 resize-none bg-transparent px-2 py-2 outline-none placeholder:text-faint"
          />
          {queueing && text.trim() && (
            <>
              <button
                type="button"
                data-testid="steer-button"
                onClick={() => submit("next-step")}
                disabled={tooLong}
                aria-keyshortcuts={STEER_KEYS}
                title={`Steer: the agent reads it after its current step (${STEER_LABEL})`}
                className="h-9 shrink-0 rounded-xl border border-accent/60 px-2.5 text-xs font-medium hover:bg-accent/15 disabled:opacity-40"
              >
                Steer <span className="sr-only">now </span>({STEER_LABEL})
              </button>
              <button
                type="button"
                data-testid="queue-button"
                onClick={() => submit("after-reply")}
                disabled={tooLong}
                aria-keyshortcuts="Enter"
                title="Queue: sent as your next message when the reply ends (Enter)"
                className="h-9 shrink-0 rounded-xl border border-border px-2.5 text-xs font-medium hover:bg-chip disabled:opacity-40"
              >
                Queue (Enter)
              </button>
            </>
          )}
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
      </div>
      <p
        id="composer-keys"
        data-testid="composer-keys"
        className={`mt-1.5 px-2 text-center text-[11px] text-faint ${queueing ? "" : "hidden sm:block"}`}
      >
        {queueing
          ? `While the reply runs: Enter queues your message for when it ends · ${STEER_LABEL} steers (read after the current step) · Esc to stop`
          : `Enter to send · Shift+Enter for a new line · ${MODE_SHORTCUT} plan/build mode · Esc to stop`}
      </p>
      {attachErrors.length > 0 && (
        <div data-testid="attachment-errors" role="alert" className="mt-1 px-2 text-xs text-danger">
          <ul className="space-y-0.5">
            {attachErrors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      )}
      {tooLong && (
        <p className="mt-1 px-2 text-xs text-danger">
          This message is over the {MAX_MESSAGE_CHARS.toLocaleString()}-character limit.
        </p>
      )}
    </form>
  );
}
