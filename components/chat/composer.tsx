"use client";
// The message box: Enter sends, Shift+Enter breaks the line, Esc stops a streaming reply; Tab and Shift+Tab move the
// focus as anywhere else. The toggle beside the box switches between plan and build mode (so does Alt+Shift+P, from
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

export function Composer({
  busy,
  onSend,
  onStop,
  mode = "build",
  onToggleMode,
}: {
  busy: boolean;
  onSend: (text: string, files?: OutgoingFile[]) => void;
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

  const submit = () => {
    if (busy || tooLong || !text.trim()) return;
    onSend(
      text,
      pending.map(({ mediaType, filename, url }) => ({ type: "file" as const, mediaType, filename, url })),
    );
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
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                submit();
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
      </div>
      <p className="mt-1.5 hidden px-2 text-center text-[11px] text-faint sm:block">
        Enter to send · Shift+Enter for a new line · {MODE_SHORTCUT} plan/build mode · Esc to stop
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
