"use client";
import { useState } from "react";
import { CodeIcon } from "../ui/icons";
import { InspectorDrawer } from "./inspector-drawer";

export function InspectorButton({ conversationId }: { conversationId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        data-testid="open-inspector"
        onClick={() => setOpen(true)}
        title="Inspect the next model input"
        aria-label="Inspect the next model input"
        className="flex shrink-0 items-center gap-1.5 rounded-lg p-2 text-xs font-medium whitespace-nowrap text-muted hover:bg-chip hover:text-fg"
      >
        <CodeIcon />
        {/* The word shows wherever the header has room (a container query on the header). */}
        <span aria-hidden="true" className="hidden @min-[22rem]:inline">
          Inspect
        </span>
      </button>
      {open && <InspectorDrawer conversationId={conversationId} onClose={() => setOpen(false)} />}
    </>
  );
}
