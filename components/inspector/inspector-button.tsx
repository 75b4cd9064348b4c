"use client";
// Opens the inspector; its code is fetched on the first open (it is not part of the page's first-load JavaScript).
import { Suspense, useState } from "react";
import { CodeIcon } from "../ui/icons";
import { onDemand } from "../ui/on-demand";

const drawer = onDemand(() => import("./inspector-drawer").then((m) => m.InspectorDrawer));

export function InspectorButton({ conversationId }: { conversationId: string }) {
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const show = () =>
    drawer.load().then(
      () => setOpen(true),
      () => {
        setNotice("The inspector could not be loaded: Hintline did not answer. Try again in a moment.");
        setTimeout(() => setNotice(null), 3500);
      },
    );
  return (
    <>
      <button
        type="button"
        data-testid="open-inspector"
        onClick={() => void show()}
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
      {notice && (
        <div
          role="status"
          className="fixed top-16 right-4 z-50 max-w-xs rounded-lg border border-border bg-elevated px-3 py-2 text-sm shadow-lg"
        >
          {notice}
        </div>
      )}
      {open && (
        <Suspense fallback={null}>
          <drawer.Component conversationId={conversationId} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
