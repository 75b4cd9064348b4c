"use client";
// The messages the person queued while a reply runs, above the composer: each says when the agent will read it (a steer
// after the reply's current step, a queued one as the next turn), with Edit and Cancel, until the agent takes it. The
// list follows the server: it loads again on every change event of the conversation (another tab's queue shows too).
import { useEffect, useState } from "react";
import { useLiveStore } from "@/lib/stores/live-store";
import { type QueuedItem, useQueueStore } from "@/lib/stores/queue-store";

/** The same empty list every time (a selector that made a new one would render without end). */
const NONE: QueuedItem[] = [];

const textOf = (item: QueuedItem) =>
  item.message.parts
    .filter((p) => p.type === "text")
    .map((p) => p.text ?? "")
    .join("\n\n");

function QueuedRow({ item }: { item: QueuedItem }) {
  const edit = useQueueStore((s) => s.edit);
  const cancel = useQueueStore((s) => s.cancel);
  const [editing, setEditing] = useState(false);
  const text = textOf(item);
  const [draft, setDraft] = useState(text);
  const label = item.when === "next-step" ? "Steer · after this step" : "Queued · after the reply";
  const short = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  const save = async () => {
    if (!draft.trim()) return;
    if (await edit(item.id, draft)) setEditing(false);
  };
  return (
    <li
      data-testid="queued-message"
      data-when={item.when}
      className="flex items-start gap-2 rounded-xl border border-border bg-elevated px-3 py-2 text-sm"
    >
      <span className="shrink-0 rounded-md bg-chip px-1.5 py-0.5 text-[11px] font-medium text-muted">{label}</span>
      {editing ? (
        <form
          className="flex flex-1 gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <input
            autoFocus
            aria-label="Edit queued message"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape") {
                e.preventDefault();
                e.stopPropagation();
                setEditing(false);
              }
            }}
            className="min-w-0 flex-1 rounded-md border border-border bg-transparent px-2 py-0.5"
          />
          <button type="submit" className="rounded-md px-2 text-xs font-medium text-accent hover:bg-chip">
            Save
          </button>
        </form>
      ) : (
        <p className="min-w-0 flex-1 truncate whitespace-pre-wrap" title={text}>
          {text}
        </p>
      )}
      {!editing && (
        <button
          type="button"
          aria-label={`Edit queued message: ${short}`}
          onClick={() => {
            setDraft(text);
            setEditing(true);
          }}
          className="shrink-0 rounded-md px-2 text-xs text-muted hover:bg-chip hover:text-fg"
        >
          Edit
        </button>
      )}
      <button
        type="button"
        data-testid="queued-cancel"
        aria-label={`Cancel queued message: ${short}`}
        onClick={() => void cancel(item.id)}
        className="shrink-0 rounded-md px-2 text-xs text-muted hover:bg-chip hover:text-danger"
      >
        Cancel
      </button>
    </li>
  );
}

/** `stored`: the conversation exists on the server (a new chat's has no queue to load until its first reply starts). */
export function QueuedMessages({ conversationId, stored }: { conversationId: string; stored: boolean }) {
  const items = useQueueStore((s) => (s.conversationId === conversationId ? s.items : NONE));
  const error = useQueueStore((s) => (s.conversationId === conversationId ? s.error : null));
  const reload = useQueueStore((s) => s.reload);
  const changes = useLiveStore((s) => s.conversations[conversationId] ?? 0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change event of the conversation loads the queue again
  useEffect(() => {
    if (stored) void reload(conversationId);
  }, [conversationId, changes, reload, stored]);
  if (!items.length && !error) return null;
  return (
    <section aria-label="Queued messages" className="mx-auto w-full max-w-3xl px-3 sm:px-6">
      {items.length > 0 && (
        <ul data-testid="queued-messages" className="mb-2 flex flex-col gap-1">
          {items.map((item) => (
            <QueuedRow key={item.id} item={item} />
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="mb-2 text-xs text-danger">
          {error}
        </p>
      )}
    </section>
  );
}
