"use client";
// The plan in the side panel: live while the agent writes it, with its versions, editable by the person, and the
// "Approve and build" button that switches to build mode and asks the agent to carry it out.
import { useEffect, useState } from "react";
import type { ConversationMode } from "@/lib/agent/plan-mode";
import type { PlanData } from "@/lib/chat-message";
import { type PlanVersionView, usePlanStore } from "@/lib/stores/plan-store";
import { Markdown } from "../chat/markdown";
import { PlanEditorDialog } from "./plan-editor-dialog";

type Initial = { mode: ConversationMode; plan: PlanData | null; planVersions: PlanVersionView[] };

const timeOf = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
};

// The page's view seeds the store once: the panel drawn again (the phone's drawer) must not undo live updates.
const seeded = new WeakSet<Initial>();

export function PlanPanel({
  conversationId,
  initial,
  exists,
}: {
  conversationId: string;
  initial: Initial;
  exists: boolean;
}) {
  const seed = usePlanStore((s) => s.seed);
  const mode = usePlanStore((s) => s.mode);
  const plan = usePlanStore((s) => s.plan);
  const versions = usePlanStore((s) => s.planVersions);
  const error = usePlanStore((s) => s.error);
  const savePlan = usePlanStore((s) => s.savePlan);
  const approve = usePlanStore((s) => s.approve);
  const [draft, setDraft] = useState<string | null>(null);
  const [shown, setShown] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (seeded.has(initial) && usePlanStore.getState().conversationId === conversationId) return;
    seeded.add(initial);
    seed(conversationId, initial, exists);
  }, [conversationId, initial, exists, seed]);

  const viewed = shown === null ? undefined : versions.find((v) => v.version === shown);
  const content = viewed?.content ?? plan?.content ?? "";
  const run = async (action: () => Promise<boolean>) => {
    setBusy(true);
    const ok = await action();
    setBusy(false);
    if (ok) setDraft(null);
  };

  return (
    <section
      data-testid="plan-panel"
      aria-label="Plan"
      className="flex max-h-[50%] min-h-0 shrink-0 flex-col border-t border-border"
    >
      <header className="flex items-baseline justify-between gap-2 px-4 pt-3 pb-1">
        <h2 className="text-sm font-semibold">Plan</h2>
        {plan && (
          <span data-testid="plan-version" className="text-xs text-muted">
            v{plan.version} · {plan.author === "person" ? "you" : "agent"} · {timeOf(plan.updatedAt)}
          </span>
        )}
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 text-sm">
        {plan ? (
          <div data-testid="plan-content" className="prose-sm">
            <Markdown text={content} />
          </div>
        ) : (
          <p data-testid="plan-empty" className="py-2 text-xs text-muted">
            No plan yet. Switch to plan mode and ask, e.g. “plan a blog post”: the agent writes its plan here.
          </p>
        )}
        {viewed && viewed.version !== plan?.version && (
          <p className="py-1 text-xs text-muted">
            Showing version {viewed.version}.{" "}
            <button type="button" className="underline" onClick={() => setShown(null)}>
              Back to the newest
            </button>
          </p>
        )}
        {error && draft === null && (
          <p role="alert" className="py-1 text-xs text-danger">
            {error}
          </p>
        )}
        {versions.length > 1 && (
          <details data-testid="plan-history" className="py-2 text-xs text-muted">
            <summary className="cursor-pointer">History ({versions.length} versions)</summary>
            <ul className="mt-1 space-y-0.5">
              {[...versions].reverse().map((v) => (
                <li key={v.version}>
                  <button
                    type="button"
                    data-testid="plan-history-item"
                    onClick={() => setShown(v.version)}
                    className="w-full rounded px-1 py-0.5 text-left hover:bg-chip/60"
                  >
                    v{v.version} · {v.author === "person" ? "you" : "agent"} · {timeOf(v.createdAt)}
                  </button>
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
      {plan && (
        <div className="flex flex-wrap items-center gap-2 border-t border-border px-3 py-2">
          <button
            type="button"
            data-testid="plan-edit"
            onClick={() => setDraft(plan.content)}
            className="rounded-lg border border-border px-2.5 py-1 text-xs hover:bg-chip"
          >
            Edit
          </button>
          {mode === "plan" && (
            <button
              type="button"
              data-testid="plan-approve"
              disabled={busy}
              onClick={() => void run(() => approve())}
              className="ml-auto rounded-lg bg-accent px-2.5 py-1 text-xs font-medium text-accent-fg disabled:opacity-40"
            >
              Approve and build
            </button>
          )}
        </div>
      )}
      <PlanEditorDialog
        draft={draft}
        onDraft={setDraft}
        busy={busy}
        error={error}
        canApprove={mode === "plan"}
        onSave={(text) => void run(() => savePlan(text))}
        onApprove={(text) => void run(() => approve(text))}
      />
    </section>
  );
}
