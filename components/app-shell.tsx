"use client";
// The frame: conversation list on the left (a drawer on phones), the conversation in the centre.
import Link from "next/link";
import type { ReactNode } from "react";
import type { ModelInfo } from "@/lib/chat-message";
import { useConversationsStore } from "@/lib/stores/conversations-store";
import { AppHeader } from "./app-header";
import { useShellControls } from "./use-shell-controls";
import { ConversationList } from "./sidebar/conversation-list";
import { ThinMeter } from "./context/context-meter";
import { HintsToggle } from "./hints-toggle";
import { LiveEvents } from "./live-events";
import { ShortcutsDialog } from "./shortcuts/shortcuts-dialog";
import { ThemeToggle } from "./theme-toggle";
import { Drawer } from "./ui/drawer";

function Logo() {
  return (
    <svg viewBox="0 0 32 32" className="size-5" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="var(--accent)" />
      <path d="M9 10h14M9 16h9M9 22h12" stroke="var(--accent-fg)" strokeWidth="2.6" strokeLinecap="round" />
    </svg>
  );
}

/** Settings → Models & connections (/settings/models): where connections are added, tested and turned off. */
function ModelsLink() {
  return (
    <div className="border-t border-border px-4 py-2 text-xs">
      <Link href="/settings/models" data-testid="models-settings-link" className="text-muted hover:text-fg">
        Models &amp; connections
      </Link>
    </div>
  );
}

export function AppShell({
  activeId,
  workspaceId,
  title,
  model,
  stored = false,
  panel,
  children,
}: {
  activeId?: string;
  /** The workspace of the open conversation (when it is stored) or of the open settings page: the switcher follows it. */
  workspaceId?: string;
  title: string;
  model: ModelInfo;
  /** The open conversation is stored (a new one is created by its first message, with the model picked before it). */
  stored?: boolean;
  /** The right-hand side (tasks); a drawer on narrow screens. */
  panel?: ReactNode;
  children: ReactNode;
}) {
  const shell = useShellControls({ hasPanel: Boolean(panel), workspaceId });
  const storedTitle = useConversationsStore((s) => s.conversations.find((c) => c.id === activeId)?.title);
  // A grid, so that the page reads in the order the keyboard goes: the header's bar of controls first (above the
  // transcript), then the columns left to right — the conversation list, the transcript with the composer below it,
  // the side panel. Both side columns run the full height; a hidden one takes no room.
  return (
    <div className="grid h-dvh grid-cols-[auto_minmax(0,1fr)_auto] grid-rows-[auto_minmax(0,1fr)] overflow-hidden">
      <LiveEvents />
      <AppHeader
        activeId={activeId}
        title={storedTitle ?? title}
        model={model}
        stored={stored}
        panel={panel ? { open: shell.panelDrawer, hidden: shell.panelHidden, toggle: shell.togglePanel } : undefined}
        onMenu={() => shell.setDrawer(true)}
        sidebarHidden={shell.sidebarHidden}
        onToggleSidebar={shell.toggleSidebar}
        onShortcuts={() => shell.setHelp(true)}
      />
      <aside
        data-testid="sidebar"
        aria-label="Sidebar"
        className={`hidden min-h-0 w-72 flex-col border-r border-border bg-panel [grid-area:1/1/3/2] ${shell.sidebarHidden ? "" : "md:flex"}`}
      >
        <div className="flex items-center gap-2 px-4 pt-4 text-sm font-semibold tracking-tight">
          <Logo /> Hintline
        </div>
        <ConversationList activeId={activeId} conversationWorkspaceId={activeId ? workspaceId : undefined} />
        <ModelsLink />
      </aside>
      <Drawer
        open={shell.drawer}
        onOpenChange={shell.setDrawer}
        title="Conversations"
        hideTitle
        side="left"
        testId="drawer"
        backdropTestId="drawer-backdrop"
        className="w-[82%] max-w-xs bg-panel md:hidden"
      >
        <div className="flex items-center gap-2 px-4 pt-4 text-sm font-semibold">
          <Logo /> Hintline
        </div>
        <ConversationList
          activeId={activeId}
          conversationWorkspaceId={activeId ? workspaceId : undefined}
          onNavigate={() => shell.setDrawer(false)}
        />
        <div className="flex items-center gap-1 border-t border-border px-3 py-2 text-xs text-muted">
          <HintsToggle />
          <ThemeToggle />
        </div>
        <ModelsLink />
      </Drawer>
      <main className="flex min-h-0 min-w-0 flex-col [grid-area:2/2/3/3]">
        {panel && <ThinMeter />}
        {children}
      </main>
      {panel && (
        <aside
          data-testid="side-panel"
          aria-label="Tasks and plan"
          className={`hidden min-h-0 w-80 flex-col border-l border-border bg-panel [grid-area:1/3/3/4] ${shell.panelHidden ? "" : "xl:flex"}`}
        >
          {panel}
        </aside>
      )}
      {panel && (
        <Drawer
          open={shell.panelDrawer}
          onOpenChange={shell.setPanelDrawer}
          title="Tasks and plan"
          hideTitle
          testId="panel-drawer"
          className="w-[88%] max-w-sm bg-panel xl:hidden"
        >
          {panel}
        </Drawer>
      )}
      <ShortcutsDialog open={shell.help} onOpenChange={shell.setHelp} />
    </div>
  );
}
