"use client";
// The conversation list: newest first in date groups; new, import, search, select, rename inline, export, delete
// with a confirmation.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { ConversationSummary } from "@/lib/chat-message";
import { useConversationsStore } from "@/lib/stores/conversations-store";
import { useWorkspacesStore } from "@/lib/stores/workspaces-store";
import { PencilIcon, PlusIcon, TrashIcon } from "../ui/icons";
import { groupByDate } from "./date-groups";
import { ExportButton } from "./export-button";
import { ImportButton } from "./import-button";
import { SidebarSearch } from "./sidebar-search";
import { WorkspaceSwitcher } from "./workspace-switcher";
import { warnFailure } from "@/lib/client-log";

function Row({ conversation, active }: { conversation: ConversationSummary; active: boolean }) {
  const rename = useConversationsStore((s) => s.rename);
  const remove = useConversationsStore((s) => s.remove);
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [draft, setDraft] = useState(conversation.title);

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
          <ExportButton id={conversation.id} title={conversation.title} />
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
    </li>
  );
}

export function ConversationList({
  activeId,
  conversationWorkspaceId,
  onNavigate,
}: {
  activeId?: string;
  /** The workspace of the open conversation, when it is stored. */
  conversationWorkspaceId?: string;
  onNavigate?: () => void;
}) {
  const conversations = useConversationsStore((s) => s.conversations);
  const loaded = useConversationsStore((s) => s.loaded);
  const showWorkspace = useConversationsStore((s) => s.showWorkspace);
  const workspaceId = useWorkspacesStore((s) => s.currentId);
  const ready = useWorkspacesStore((s) => s.ready);
  const [searching, setSearching] = useState(false);

  useEffect(() => {
    if (ready) void showWorkspace(workspaceId).catch(warnFailure("loading the workspace's conversations failed"));
  }, [ready, workspaceId, showWorkspace]);

  return (
    <nav aria-label="Conversations" className="flex min-h-0 flex-1 flex-col">
      <WorkspaceSwitcher activeId={activeId} onNavigate={onNavigate} conversationWorkspaceId={conversationWorkspaceId} />
      <div className="flex flex-wrap gap-2 p-3">
        <Link
          href="/"
          prefetch={false}
          data-testid="new-chat"
          onClick={onNavigate}
          className="flex flex-1 items-center gap-2 rounded-lg border border-border bg-elevated px-3 py-2 text-sm font-medium hover:border-accent/50"
        >
          <PlusIcon /> New chat
        </Link>
        <ImportButton onNavigate={onNavigate} />
      </div>
      <SidebarSearch workspaceId={ready ? workspaceId : null} activeId={activeId} onActiveChange={setSearching} onNavigate={onNavigate} />
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: closes the drawer after a link was followed */}
      <ul data-testid="conversation-list" data-loaded={loaded} hidden={searching} className="min-h-0 flex-1 space-y-0.5 overflow-y-auto px-2 pb-3" onClick={onNavigate}>
        {loaded && conversations.length === 0 && <li className="px-3 py-2 text-sm text-muted">No conversations in this workspace yet.</li>}
        {groupByDate(conversations, new Date()).map((group) => (
          <li key={group.key} data-testid="date-group" className="pb-2">
            <h3 className="px-3 pt-1 pb-0.5 text-xs font-medium text-muted">
              {group.label}
            </h3>
            <ul className="space-y-0.5">
              {group.items.map((c) => (
                <Row key={c.id} conversation={c} active={c.id === activeId} />
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </nav>
  );
}
