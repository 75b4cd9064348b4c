"use client";
// A task's statuses by name: a small button beside the tick opens a menu of all four (Radix: keyboard, focus and Esc
// handled), for in progress and cancelled; the tick itself completes or reopens.
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import type { TaskStatus } from "@/lib/chat-message";
import { MoreIcon } from "../ui/icons";
import { StatusIcon } from "./status-icon";
import { STATUS_LABEL } from "./status-labels";

const STATUSES = Object.keys(STATUS_LABEL) as TaskStatus[];

export function StatusMenu({
  status,
  subject,
  onChange,
}: {
  status: TaskStatus;
  subject: string;
  onChange: (status: TaskStatus) => void;
}) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button
          type="button"
          data-testid="task-status"
          aria-label={`Status of “${subject}”: ${STATUS_LABEL[status]}`}
          title={`${STATUS_LABEL[status]} — change the status`}
          className="shrink-0 rounded px-0.5 text-muted outline-none hover:text-fg focus-visible:ring-2 focus-visible:ring-accent"
        >
          <MoreIcon width={14} height={14} />
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          data-testid="task-status-menu"
          align="start"
          sideOffset={4}
          className="z-50 min-w-36 rounded-lg border border-border bg-elevated p-1 text-sm shadow-lg"
        >
          <DropdownMenu.RadioGroup
            value={status}
            onValueChange={(value) => value !== status && onChange(value as TaskStatus)}
          >
            {STATUSES.map((value) => (
              <DropdownMenu.RadioItem
                key={value}
                value={value}
                className="flex cursor-default items-center gap-2 rounded-md px-2 py-1 outline-none select-none data-[highlighted]:bg-chip"
              >
                <StatusIcon status={value} />
                <span className="flex-1">{STATUS_LABEL[value]}</span>
                <DropdownMenu.ItemIndicator aria-hidden="true" className="text-xs text-muted">
                  ✓
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
