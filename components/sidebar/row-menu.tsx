"use client";
// A conversation row's menu (Radix: keyboard, focus and Esc handled): pin or unpin, archive or unarchive, export.
import * as Menu from "@radix-ui/react-dropdown-menu";
import type { ConversationSummary } from "@/lib/chat-message";
import { MoreIcon } from "../ui/icons";

const item =
  "flex cursor-default items-center gap-2 rounded-md px-2.5 py-1.5 text-sm outline-none select-none data-[highlighted]:bg-chip";

export function RowMenu({
  conversation,
  onOrganise,
  onExport,
}: {
  conversation: ConversationSummary;
  onOrganise: (flags: { pinned?: boolean; archived?: boolean }) => void;
  onExport: () => void;
}) {
  const { title, pinned, archived } = conversation;
  return (
    // Not modal: a menu need not hide the page from assistive technology.
    <Menu.Root modal={false}>
      <Menu.Trigger
        data-testid="row-menu"
        aria-label={`Actions for “${title}”`}
        title="Pin, archive, export"
        className="rounded-md p-1.5 text-muted outline-none hover:bg-bg hover:text-fg focus-visible:ring-2 focus-visible:ring-accent data-[state=open]:bg-bg data-[state=open]:text-fg"
      >
        <MoreIcon />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          data-testid="row-menu-content"
          aria-label={`Actions for “${title}”`}
          align="end"
          sideOffset={4}
          className="z-50 min-w-44 rounded-xl border border-border bg-elevated p-1 shadow-xl"
        >
          {!archived && (
            <Menu.Item data-testid="pin-button" className={item} onSelect={() => onOrganise({ pinned: !pinned })}>
              {pinned ? "Unpin" : "Pin to top"}
            </Menu.Item>
          )}
          <Menu.Item data-testid="archive-button" className={item} onSelect={() => onOrganise({ archived: !archived })}>
            {archived ? "Unarchive" : "Archive"}
          </Menu.Item>
          <Menu.Item data-testid="export-button" className={item} onSelect={onExport}>
            Export as JSON
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
