"use client";
// The header's overflow menu (Radix DropdownMenu): what does not fit beside the title on narrow headers — the model,
// the hint switch, the theme, the keyboard shortcuts and Settings → Models & connections.
import * as Menu from "@radix-ui/react-dropdown-menu";
import Link from "next/link";
import type { ModelInfo } from "@/lib/chat-message";
import { useUiStore } from "@/lib/stores/ui-store";
import { useTheme } from "./theme-toggle";
import { MoreIcon } from "./ui/icons";

const item =
  "flex cursor-default items-center gap-2 rounded-md px-2.5 py-1.5 text-sm outline-none data-[highlighted]:bg-chip";

export function HeaderMenu({
  model,
  onShortcuts,
  className = "",
}: {
  model: ModelInfo;
  onShortcuts: () => void;
  className?: string;
}) {
  const showHints = useUiStore((s) => s.showHints);
  const toggleHints = useUiStore((s) => s.toggleHints);
  const { toggle, label } = useTheme();
  return (
    // Not modal: a menu need not hide the page from assistive technology (and must not leave focusable parts hidden).
    <Menu.Root modal={false}>
      <Menu.Trigger
        data-testid="header-menu"
        aria-label="More"
        title="More"
        className={`shrink-0 rounded-lg p-2 text-muted hover:bg-chip hover:text-fg ${className}`}
      >
        <MoreIcon />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-56 rounded-xl border border-border bg-elevated p-1 shadow-xl"
        >
          <Menu.Label className="px-2.5 py-1.5 text-xs text-muted">
            {model.isDemo ? "Demo model" : model.provider} · <span className="font-medium text-fg">{model.id}</span> ·{" "}
            {model.contextWindow.toLocaleString()} tokens
          </Menu.Label>
          <Menu.Separator className="my-1 h-px bg-border" />
          <Menu.CheckboxItem
            checked={showHints}
            onCheckedChange={toggleHints}
            onSelect={(e) => e.preventDefault()}
            className={item}
          >
            <span aria-hidden="true" className="w-4 text-center">
              {showHints ? "✓" : ""}
            </span>
            Show hints
          </Menu.CheckboxItem>
          <Menu.Item onSelect={toggle} className={item}>
            <span aria-hidden="true" className="w-4" />
            {label}
          </Menu.Item>
          <Menu.Item onSelect={onShortcuts} className={item}>
            <span aria-hidden="true" className="w-4 text-center">
              ?
            </span>
            Keyboard shortcuts
          </Menu.Item>
          <Menu.Item asChild className={item}>
            <Link href="/settings/models" data-testid="header-models-settings">
              <span aria-hidden="true" className="w-4" />
              Models &amp; connections
            </Link>
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
