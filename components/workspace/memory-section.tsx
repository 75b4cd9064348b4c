"use client";
// A workspace's memory: every entry with who wrote it (the agent, a compression or you) and when; edit inline, delete,
// add.
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { PencilIcon, TrashIcon } from "../ui/icons";

export type MemoryEntryView = {
  id: string;
  text: string;
  author: "agent" | "person" | "system";
  /** A durable fact the system kept: whose words it came from. */
  source?: "person" | "agent";
  createdAt: string;
  updatedAt: string;
};

/** Who wrote an entry, as the list says it (a durable fact the system kept: from whose words). */
function authorLabel(entry: MemoryEntryView): string {
  if (entry.author === "agent") return "agent";
  if (entry.author === "person") return "you";
  if (entry.source === "person") return "kept from your words";
  return entry.source === "agent" ? "kept from the agent's words" : "kept from a conversation";
}

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

function EntryRow({
  entry,
  onSave,
  onDelete,
}: {
  entry: MemoryEntryView;
  onSave: (text: string) => Promise<boolean>;
  onDelete: () => Promise<void>;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(entry.text);
  const save = async () => {
    const text = draft.trim();
    if (!text || text === entry.text) return setEditing(false);
    if (await onSave(text)) setEditing(false);
  };
  return (
    <li
      data-testid="memory-entry"
      data-author={entry.author}
      data-entry-id={entry.id}
      className="group flex items-start gap-2 rounded-lg px-2 py-1.5 hover:bg-chip/50"
    >
      <div className="min-w-0 flex-1">
        {editing ? (
          <input
            data-testid="memory-edit-input"
            aria-label="Memory entry"
            autoFocus
            value={draft}
            maxLength={1000}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") void save();
              if (e.key === "Escape") {
                setDraft(entry.text);
                setEditing(false);
              }
            }}
            onBlur={() => void save()}
            className="w-full rounded-md border border-accent/50 bg-elevated px-2 py-1 text-sm outline-none"
          />
        ) : (
          <p data-testid="memory-text" className="text-sm break-words">
            {entry.text}
          </p>
        )}
        <p className="mt-0.5 text-xs text-faint">
          <span data-testid="memory-author" className={entry.author === "person" ? undefined : "text-accent"}>
            {authorLabel(entry)}
          </span>
          {" · "}
          <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time>
          {entry.updatedAt !== entry.createdAt && <> · edited {when(entry.updatedAt)}</>}
        </p>
      </div>
      {!editing && (
        <div className="flex shrink-0 gap-0.5 opacity-60 transition group-hover:opacity-100 focus-within:opacity-100">
          <button
            type="button"
            data-testid="memory-edit"
            aria-label={`Edit memory entry: ${entry.text}`}
            className="rounded-md p-1.5 text-muted hover:bg-bg hover:text-fg"
            onClick={() => {
              setDraft(entry.text);
              setEditing(true);
            }}
          >
            <PencilIcon />
          </button>
          <button
            type="button"
            data-testid="memory-delete"
            aria-label={`Delete memory entry: ${entry.text}`}
            className="rounded-md p-1.5 text-muted hover:bg-bg hover:text-danger"
            onClick={() => void onDelete()}
          >
            <TrashIcon />
          </button>
        </div>
      )}
    </li>
  );
}

export function MemorySection({ workspaceId, onChanged }: { workspaceId: string; onChanged: () => void }) {
  const [entries, setEntries] = useState<MemoryEntryView[] | null>(null);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const base = `/api/workspaces/${encodeURIComponent(workspaceId)}/memory`;

  const load = useCallback(async () => {
    try {
      setEntries(await apiFetch<MemoryEntryView[]>(base));
    } catch (e) {
      setError(failureText(e));
    }
  }, [base]);

  // The agent writes entries while you chat: coming back to this tab shows them.
  useEffect(() => {
    void load();
    const onFocus = () => void load();
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [load]);

  const act = async (action: () => Promise<unknown>, kept?: string): Promise<boolean> => {
    setError(null);
    try {
      await action();
      await load();
      onChanged();
      return true;
    } catch (e) {
      setError(failureText(e, { kept }));
      return false;
    }
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text) return setError("Write the entry first: one line, like “Prefers metric units”.");
    if (await act(() => apiFetch(base, { method: "POST", body: JSON.stringify({ text }) }), "entry")) setDraft("");
  };

  return (
    <section data-testid="memory-section" aria-labelledby="memory-heading" className="space-y-2">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="memory-heading" className="text-sm font-semibold">
          Memory{" "}
          <span className="font-normal text-faint">
            {entries ? `· ${entries.length} ${entries.length === 1 ? "entry" : "entries"}` : ""}
          </span>
        </h2>
        <button
          type="button"
          data-testid="memory-refresh"
          className="text-xs text-muted hover:text-fg"
          onClick={() => void load()}
        >
          Refresh
        </button>
      </div>
      <p className="text-xs text-muted">
        One line per fact, preference or decision. The agent adds entries when you ask it to remember something; it sees
        them in every new conversation of this workspace.
      </p>
      <ul data-testid="memory-list" data-loaded={entries !== null} className="space-y-0.5">
        {entries?.length === 0 && <li className="px-2 py-1.5 text-sm text-muted">Nothing remembered yet.</li>}
        {entries?.map((entry) => (
          <EntryRow
            key={entry.id}
            entry={entry}
            onSave={(text) =>
              act(() => apiFetch(`${base}/${entry.id}`, { method: "PATCH", body: JSON.stringify({ text }) }), "edit")
            }
            onDelete={async () => void (await act(() => apiFetch(`${base}/${entry.id}`, { method: "DELETE" })))}
          />
        ))}
      </ul>
      <form onSubmit={(e) => void add(e)} className="flex gap-2">
        <input
          data-testid="memory-add-input"
          aria-label="New memory entry"
          placeholder="Add an entry, e.g. Prefers metric units"
          value={draft}
          maxLength={1000}
          onChange={(e) => setDraft(e.target.value)}
          className="min-w-0 flex-1 rounded-lg border border-border bg-elevated px-3 py-1.5 text-sm outline-none focus:border-accent/60"
        />
        <button
          type="submit"
          data-testid="memory-add"
          className="rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-accent-fg"
        >
          Add
        </button>
      </form>
      {error && (
        <p role="alert" data-testid="memory-error" className="text-xs text-danger">
          {error}
        </p>
      )}
    </section>
  );
}
