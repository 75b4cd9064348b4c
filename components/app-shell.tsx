"use client";
// The frame: conversation list on the left (a drawer on phones), the conversation in the centre.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, useEffect, useState } from "react";
import type { ModelInfo } from "@/lib/chat-message";
import { useConversationsStore } from "@/lib/stores/conversations-store";
import { useUiStore } from "@/lib/stores/ui-store";
import { useWorkspacesStore } from "@/lib/stores/workspaces-store";
import { UserMenu } from "./accounts/user-menu";
import { HeaderMenu } from "./header-menu";
import { ModelBadge } from "./model-badge";
import { ModelPicker } from "./model-picker";
import { ConversationList } from "./sidebar/conversation-list";
import { ThinMeter } from "./context/context-meter";
import { HintsToggle } from "./hints-toggle";
import { InspectorButton } from "./inspector/inspector-button";
import { LiveEvents } from "./live-events";
import { SettingsButton } from "./settings/settings-button";
import { ShortcutsDialog } from "./shortcuts/shortcuts-dialog";
import { focusComposer, useShortcuts } from "./shortcuts/use-shortcuts";
import { ThemeToggle } from "./theme-toggle";
import { Drawer } from "./ui/drawer";
import { ChecklistIcon, MenuIcon, SidebarIcon } from "./ui/icons";

/** Where the side panel is a column (Tailwind's `xl`); below it, a drawer. */
const PANEL_COLUMN_QUERY = "(min-width: 80rem)";

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
  const [drawer, setDrawer] = useState(false);
  const [panelDrawer, setPanelDrawer] = useState(false);
  // Wide screens fold the conversation list (Ctrl+Shift+S) and the side panel (Ctrl+.) away, remembered on this
  // device; narrow screens use the drawers. The side panel is a column only from 80rem (1280 px): below it, beside a
  // 288 px list, it left the transcript 416 px at 1024 px, so there it opens as a drawer over the transcript.
  const sidebarHidden = useUiStore((s) => s.sidebarHidden);
  const panelHidden = useUiStore((s) => s.panelHidden);
  const [help, setHelp] = useState(false);
  const router = useRouter();
  const togglePanel = () => {
    if (!panel) return;
    if (window.matchMedia(PANEL_COLUMN_QUERY).matches) useUiStore.getState().togglePanel();
    else setPanelDrawer((open) => !open);
  };
  const toggleSidebar = () => {
    if (window.matchMedia("(min-width: 48rem)").matches) useUiStore.getState().toggleSidebar();
    else setDrawer((open) => !open);
  };
  // A drawer left open while the window grows past its breakpoint would hide itself but keep the page modal: close it.
  useEffect(() => {
    const wide = [
      [window.matchMedia("(min-width: 48rem)"), () => setDrawer(false)],
      [window.matchMedia(PANEL_COLUMN_QUERY), () => setPanelDrawer(false)],
    ] as const;
    const listeners = wide.map(([query, close]) => {
      const listener = () => query.matches && close();
      query.addEventListener("change", listener);
      return () => query.removeEventListener("change", listener);
    });
    return () => {
      for (const remove of listeners) remove();
    };
  }, []);
  useShortcuts({
    "new-chat": () => router.push("/"),
    "focus-composer": focusComposer,
    "toggle-sidebar": toggleSidebar,
    "toggle-panel": togglePanel,
    help: () => setHelp(true),
  });
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
  // A grid, so that the page reads in the order the keyboard goes: the header's bar of controls first (above the
  // transcript), then the columns left to right — the conversation list, the transcript with the composer below it,
  // the side panel. Both side columns run the full height; a hidden one takes no room.
  return (
    <div className="grid h-dvh grid-cols-[auto_minmax(0,1fr)_auto] grid-rows-[auto_minmax(0,1fr)] overflow-hidden">
      <LiveEvents />
      {/* A container: what shows beside the title depends on the header's own width (the side columns come and go). */}
      <header
        data-testid="app-header"
        className="@container flex h-14 min-w-0 items-center gap-1 border-b border-border px-2 [grid-area:1/2/2/3] sm:px-4"
      >
        <button
          type="button"
          data-testid="menu-button"
          aria-label="Open conversations"
          className="shrink-0 rounded-lg p-2 text-muted hover:bg-chip md:hidden"
          onClick={() => setDrawer(true)}
        >
          <MenuIcon />
        </button>
        <button
          type="button"
          data-testid="toggle-sidebar"
          aria-label="Conversation list"
          aria-expanded={!sidebarHidden}
          title="Show or hide the conversation list (Ctrl+Shift+S)"
          className="hidden shrink-0 rounded-lg p-2 text-muted hover:bg-chip md:block"
          onClick={toggleSidebar}
        >
          <SidebarIcon />
        </button>
        <h1 data-testid="chat-title" className="min-w-[7.5rem] flex-1 truncate text-sm font-medium">
          {storedTitle ?? title}
        </h1>
        <div className="hidden shrink-0 @xl:flex">
          {activeId ? (
            <ModelPicker conversationId={activeId} stored={stored} model={model} />
          ) : (
            <ModelBadge model={model} />
          )}
        </div>
        {panel && (
          <button
            type="button"
            data-testid="open-panel"
            aria-label="Tasks and plan"
            aria-expanded={panelDrawer}
            data-panel-hidden={panelHidden}
            title="Show or hide tasks and plan (Ctrl+.)"
            className="shrink-0 rounded-lg p-2 text-muted hover:bg-chip"
            onClick={togglePanel}
          >
            <ChecklistIcon />
          </button>
        )}
        <div className="hidden shrink-0 items-center @xl:flex">
          <HintsToggle />
        </div>
        {activeId && <InspectorButton conversationId={activeId} />}
        {activeId && <SettingsButton conversationId={activeId} />}
        <button
          type="button"
          data-testid="open-shortcuts"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          className="hidden size-9 shrink-0 items-center justify-center rounded-lg text-sm font-semibold text-muted hover:bg-chip hover:text-fg @3xl:flex"
          onClick={() => setHelp(true)}
        >
          ?
        </button>
        <div className="hidden shrink-0 @xl:block">
          <ThemeToggle />
        </div>
        <HeaderMenu model={model} onShortcuts={() => setHelp(true)} className="@3xl:hidden" />
        <UserMenu />
      </header>
      <aside
        data-testid="sidebar"
        aria-label="Sidebar"
        className={`hidden min-h-0 w-72 flex-col border-r border-border bg-panel [grid-area:1/1/3/2] ${sidebarHidden ? "" : "md:flex"}`}
      >
        <div className="flex items-center gap-2 px-4 pt-4 text-sm font-semibold tracking-tight">
          <Logo /> Hintline
        </div>
        <ConversationList activeId={activeId} conversationWorkspaceId={activeId ? workspaceId : undefined} />
        <ModelsLink />
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
        <ConversationList
          activeId={activeId}
          conversationWorkspaceId={activeId ? workspaceId : undefined}
          onNavigate={() => setDrawer(false)}
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
          className={`hidden min-h-0 w-80 flex-col border-l border-border bg-panel [grid-area:1/3/3/4] ${panelHidden ? "" : "xl:flex"}`}
        >
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
          className="w-[88%] max-w-sm bg-panel xl:hidden"
        >
          {panel}
        </Drawer>
      )}
      <ShortcutsDialog open={help} onOpenChange={setHelp} />
    </div>
  );
}
