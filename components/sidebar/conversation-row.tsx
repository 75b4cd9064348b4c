"use client";
// A row of the conversation list: its link, rename inline, the menu (pin, archive, export) and delete with a
// confirmation; in selection mode a checkbox instead.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ConversationSummary } from "@/lib/chat-message";
import { failureText } from "@/lib/stores/api-client";
import { useConversationsStore } from "@/lib/stores/conversations-store";
import { PencilIcon, TrashIcon } from "../ui/icons";
import { ExportError, useExport } from "./export-button";
import { RowMenu } from "./row-menu";

export function ConversationRow({
  conversation,
  active,
  selection,
}: {
  conversation: ConversationSummary;
  active: boolean;
  /** In selection mode: whether the row is selected, and how to change it (the row is then a checkbox). */
  selection?: { selected: boolean; toggle: () => void };
}) {
  const rename = useConversationsStore((s) => s.rename);
  const remove = useConversationsStore((s) => s.remove);
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [draft, setDraft] = useState(conversation.title);
  const organise = useConversationsStore((s) => s.organise);
  const exporting = useExport(conversation.id, conversation.title);
  const [failure, setFailure] = useState<string | null>(null);
  const change = (flags: { pinned?: boolean; archived?: boolean }) => {
    setFailure(null);
    organise(conversation.id, flags).catch((e) => setFailure(`Could not ${describeChange(flags)}: ${failureText(e)}`));
  };

  if (selection) {
    return (
      <li data-testid="conversation-item" data-conversation-id={conversation.id} data-selected={selection.selected}>
        <label
          className={`flex cursor-pointer items-center gap-2.5 rounded-lg px-3 py-2 text-sm ${selection.selected ? "bg-chip" : "hover:bg-chip/60"}`}
        >
          <input
            type="checkbox"
            data-testid="select-conversation"
            checked={selection.selected}
            onChange={selection.toggle}
            className="size-4 shrink-0 accent-accent"
          />
          <span data-testid="conversation-title" className="truncate">
            {conversation.title}
          </span>
        </label>
      </li>
    );
  }

  const commit = async () => {
    setEditing(false);
    const title = draft.trim();
    if (title && title !== conversation.title) await rename(conversation.id, title);
    else setDraft(conversation.title);
  };

  if (confirming) {
    return (
      <li data-testid="confirm-delete" className="rounded-lg border border-danger/30 bg-danger-bg p-2 text-sm">
        <p className="mb-2 text-danger">Delete “{conversation.title}”? This cannot be undone.</p>
        <div className="flex gap-2">
          <button
            type="button"
            data-testid="confirm-delete-yes"
            className="rounded-md bg-danger px-2.5 py-1 text-white"
            onClick={async () => {
              await remove(conversation.id);
              if (active) router.push("/");
            }}
          >
            Delete
          </button>
          <button
            type="button"
            data-testid="confirm-delete-no"
            className="rounded-md border border-border px-2.5 py-1"
            onClick={() => setConfirming(false)}
          >
            Cancel
          </button>
        </div>
      </li>
    );
  }

  return (
    <li data-testid="conversation-item" data-conversation-id={conversation.id} className="group relative">
      {editing ? (
        <input
          data-testid="rename-input"
          aria-label="Conversation title"
          autoFocus
          value={draft}
          maxLength={200}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => void commit()}
          onKeyDown={(e) => {
            if (e.key === "Enter") void commit();
            if (e.key === "Escape") {
              setDraft(conversation.title);
              setEditing(false);
            }
          }}
          className="w-full rounded-lg border border-accent/50 bg-elevated px-3 py-2 text-sm outline-none"
        />
      ) : (
        <Link
          href={`/c/${conversation.id}`}
          aria-current={active ? "page" : undefined}
          className={`block truncate rounded-lg px-3 py-2 pr-24 text-sm transition ${
            active ? "bg-chip font-medium" : "text-fg/85 hover:bg-chip/60"
          }`}
        >
          <span data-testid="conversation-title">{conversation.title}</span>
        </Link>
      )}
      {!editing && (
        <div className="absolute top-1/2 right-1.5 flex -translate-y-1/2 gap-0.5">
          <button
            type="button"
            data-testid="rename-button"
            aria-label={`Rename “${conversation.title}”`}
            title="Rename"
            className="rounded-md p-1.5 text-muted hover:bg-bg hover:text-fg"
            onClick={() => {
              setDraft(conversation.title);
              setEditing(true);
            }}
          >
            <PencilIcon />
          </button>
          <RowMenu conversation={conversation} onOrganise={change} onExport={() => void exporting.save()} />
          <button
            type="button"
            data-testid="delete-button"
            aria-label={`Delete “${conversation.title}”`}
            title="Delete"
            className="rounded-md p-1.5 text-muted hover:bg-bg hover:text-danger"
            onClick={() => setConfirming(true)}
          >
            <TrashIcon />
          </button>
        </div>
      )}
      <ExportError error={exporting.error ?? failure} />
    </li>
  );
}

function describeChange({ pinned, archived }: { pinned?: boolean; archived?: boolean }): string {
  if (pinned !== undefined) return pinned ? "pin it" : "unpin it";
  return archived ? "archive it" : "unarchive it";
}
