"use client";
// The bar above the transcript: the conversation's title and its controls (model, side panel, hints, inspector,
// settings, shortcuts, theme, account). What shows beside the title depends on the header's own width.
import type { ModelInfo } from "@/lib/chat-message";
import { UserMenu } from "./accounts/user-menu";
import { HeaderMenu } from "./header-menu";
import { HintsToggle } from "./hints-toggle";
import { InspectorButton } from "./inspector/inspector-button";
import { ModelBadge } from "./model-badge";
import { ModelPicker } from "./model-picker";
import { SettingsButton } from "./settings/settings-button";
import { ThemeToggle } from "./theme-toggle";
import { ChecklistIcon, MenuIcon, SidebarIcon } from "./ui/icons";

/** The side panel's toggle: open as a drawer (narrow screens), folded away (wide ones). */
type PanelToggle = { open: boolean; hidden: boolean; toggle: () => void };

export function AppHeader({
  activeId,
  title,
  model,
  stored,
  panel,
  onMenu,
  sidebarHidden,
  onToggleSidebar,
  onShortcuts,
}: {
  activeId?: string;
  title: string;
  model: ModelInfo;
  stored: boolean;
  panel?: PanelToggle;
  onMenu: () => void;
  sidebarHidden: boolean;
  onToggleSidebar: () => void;
  onShortcuts: () => void;
}) {
  return (
    <header
      data-testid="app-header"
      className="@container flex h-14 min-w-0 items-center gap-1 border-b border-border px-2 [grid-area:1/2/2/3] sm:px-4"
    >
      <button
        type="button"
        data-testid="menu-button"
        aria-label="Open conversations"
        className="shrink-0 rounded-lg p-2 text-muted hover:bg-chip md:hidden"
        onClick={onMenu}
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
        onClick={onToggleSidebar}
      >
        <SidebarIcon />
      </button>
      <h1 data-testid="chat-title" className="min-w-[7.5rem] flex-1 truncate text-sm font-medium">
        {title}
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
          aria-expanded={panel.open}
          data-panel-hidden={panel.hidden}
          title="Show or hide tasks and plan (Ctrl+.)"
          className="shrink-0 rounded-lg p-2 text-muted hover:bg-chip"
          onClick={panel.toggle}
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
        onClick={onShortcuts}
      >
        ?
      </button>
      <div className="hidden shrink-0 @xl:block">
        <ThemeToggle />
      </div>
      <HeaderMenu model={model} onShortcuts={onShortcuts} className="@3xl:hidden" />
      <UserMenu />
    </header>
  );
}
