"use client";
// The frame: conversation list on the left (a drawer on phones), the conversation in the centre.
import { type ReactNode, useEffect, useState } from "react";
import type { ModelInfo } from "@/lib/chat-message";
import { useConversationsStore } from "@/lib/stores/conversations-store";
import { useUiStore } from "@/lib/stores/ui-store";
import { useWorkspacesStore } from "@/lib/stores/workspaces-store";
import { ModelBadge } from "./model-badge";
import { ConversationList } from "./sidebar/conversation-list";
import { ThinMeter } from "./context/context-meter";
import { HintsToggle } from "./hints-toggle";
import { InspectorButton } from "./inspector/inspector-button";
import { SettingsButton } from "./settings/settings-button";
import { ThemeToggle } from "./theme-toggle";
import { Drawer } from "./ui/drawer";
import { ChecklistIcon, MenuIcon } from "./ui/icons";

function Logo() {
  return (
    <svg viewBox="0 0 32 32" className="size-5" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="var(--accent)" />
      <path d="M9 10h14M9 16h9M9 22h12" stroke="var(--accent-fg)" strokeWidth="2.6" strokeLinecap="round" />
    </svg>
  );
}

export function AppShell({
  activeId,
  workspaceId,
  title,
  model,
  panel,
  children,
}: {
  activeId?: string;
  /** The workspace of the open conversation (when it is stored) or of the open settings page: the switcher follows it. */
  workspaceId?: string;
  title: string;
  model: ModelInfo;
  /** The right-hand side (tasks); a drawer on narrow screens. */
  panel?: ReactNode;
  children: ReactNode;
}) {
  const [drawer, setDrawer] = useState(false);
  const [panelDrawer, setPanelDrawer] = useState(false);
  useEffect(() => {
    void useUiStore.persist.rehydrate();
  }, []);
  useEffect(() => {
    const store = useWorkspacesStore;
    void Promise.resolve(store.persist.rehydrate()).then(() => {
      if (workspaceId) store.getState().select(workspaceId);
      store.getState().setReady();
    });
  }, [workspaceId]);
  const storedTitle = useConversationsStore((s) => s.conversations.find((c) => c.id === activeId)?.title);
  return (
    <div className="flex h-dvh overflow-hidden">
      <aside data-testid="sidebar" aria-label="Sidebar" className="hidden w-72 shrink-0 flex-col border-r border-border bg-panel md:flex">
        <div className="flex items-center gap-2 px-4 pt-4 text-sm font-semibold tracking-tight">
          <Logo /> Hintline
        </div>
        <ConversationList activeId={activeId} conversationWorkspaceId={activeId ? workspaceId : undefined} />
      </aside>
      <Drawer
        open={drawer}
        onOpenChange={setDrawer}
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
        <ConversationList activeId={activeId} conversationWorkspaceId={activeId ? workspaceId : undefined} onNavigate={() => setDrawer(false)} />
        <div className="flex items-center gap-1 border-t border-border px-3 py-2 text-xs text-muted">
          <HintsToggle />
          <ThemeToggle />
        </div>
      </Drawer>
      <main className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-14 shrink-0 items-center gap-1 border-b border-border px-2 sm:gap-2 sm:px-5">
          <button
            type="button"
            data-testid="menu-button"
            aria-label="Open conversations"
            className="rounded-lg p-2 text-muted hover:bg-chip md:hidden"
            onClick={() => setDrawer(true)}
          >
            <MenuIcon />
          </button>
          <h1 data-testid="chat-title" className="min-w-0 flex-1 truncate text-sm font-medium">
            {storedTitle ?? title}
          </h1>
          <ModelBadge model={model} />
          {panel && (
            <button
              type="button"
              data-testid="open-panel"
              aria-label="Open tasks"
              title="Tasks"
              className="rounded-lg p-2 text-muted hover:bg-chip lg:hidden"
              onClick={() => setPanelDrawer(true)}
            >
              <ChecklistIcon />
            </button>
          )}
          <div className="hidden items-center sm:flex">
            <HintsToggle />
          </div>
          {activeId && <InspectorButton conversationId={activeId} />}
          {activeId && <SettingsButton conversationId={activeId} />}
          <div className="hidden sm:block">
            <ThemeToggle />
          </div>
        </header>
        {panel && <ThinMeter />}
        {children}
      </main>
      {panel && (
        <aside data-testid="side-panel" aria-label="Tasks and plan" className="hidden w-80 shrink-0 flex-col border-l border-border bg-panel lg:flex">
          {panel}
        </aside>
      )}
      {panel && (
        <Drawer
          open={panelDrawer}
          onOpenChange={setPanelDrawer}
          title="Tasks and plan"
          hideTitle
          testId="panel-drawer"
          className="w-[88%] max-w-sm bg-panel lg:hidden"
        >
          {panel}
        </Drawer>
      )}
    </div>
  );
}
