"use client";
// The conversation list: pinned ones first, then newest first in date groups; new, import, search, the archived view,
// selecting several to export at once; each row renames, pins, archives, exports and deletes (conversation-row.tsx).
import Link from "next/link";
import { useEffect, useState } from "react";
import { useConversationsStore } from "@/lib/stores/conversations-store";
import { useWorkspacesStore } from "@/lib/stores/workspaces-store";
import { PlusIcon } from "../ui/icons";
import { ConversationRow } from "./conversation-row";
import { groupForList } from "./date-groups";
import { ListToolbar, useSelection } from "./list-toolbar";
import { ImportButton } from "./import-button";
import { SidebarSearch } from "./sidebar-search";
import { WorkspaceSwitcher } from "./workspace-switcher";
import { warnFailure } from "@/lib/client-log";

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
  const archivedView = useConversationsStore((s) => s.archivedView);
  const [searching, setSearching] = useState(false);
  const selection = useSelection(conversations);

  useEffect(() => {
    if (ready) void showWorkspace(workspaceId).catch(warnFailure("loading the workspace's conversations failed"));
  }, [ready, workspaceId, showWorkspace]);

  return (
    <nav aria-label="Conversations" className="flex min-h-0 flex-1 flex-col">
      <WorkspaceSwitcher
        activeId={activeId}
        onNavigate={onNavigate}
        conversationWorkspaceId={conversationWorkspaceId}
      />
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
      <SidebarSearch
        workspaceId={ready ? workspaceId : null}
        activeId={activeId}
        onActiveChange={setSearching}
        onNavigate={onNavigate}
      />
      {!searching && <ListToolbar selection={selection} />}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: closes the drawer after a link was followed */}
      <ul
        data-testid="conversation-list"
        data-loaded={loaded}
        data-view={archivedView ? "archived" : "active"}
        aria-label={archivedView ? "Archived conversations" : undefined}
        hidden={searching}
        className="min-h-0 flex-1 space-y-0.5 overflow-y-auto px-2 pb-3"
        onClick={(e) => {
          if ((e.target as Element).closest("a")) onNavigate?.();
        }}
      >
        {loaded && conversations.length === 0 && (
          <li className="px-3 py-2 text-sm text-muted">
            {archivedView ? "No archived conversations in this workspace." : "No conversations in this workspace yet."}
          </li>
        )}
        {groupForList(conversations, new Date()).map((group) => (
          <li key={group.key} data-testid="date-group" data-group={group.key} className="pb-2">
            <h3 className="px-3 pt-1 pb-0.5 text-xs font-medium text-muted">{group.label}</h3>
            <ul className="space-y-0.5">
              {group.items.map((c) => (
                <ConversationRow
                  key={c.id}
                  conversation={c}
                  active={c.id === activeId}
                  selection={selection.rowOf(c.id)}
                />
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </nav>
  );
}
