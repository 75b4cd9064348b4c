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
        className="rounded-lg p-2 text-muted hover:bg-chip hover:text-fg"
      >
        <CodeIcon />
        <span className="sr-only">Inspect the next model input</span>
      </button>
      {open && <InspectorDrawer conversationId={conversationId} onClose={() => setOpen(false)} />}
    </>
  );
}
