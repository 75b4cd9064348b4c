"use client";
// Shown above the composer while the conversation is in plan mode.
import { usePlanStore } from "@/lib/stores/plan-store";
import { MODE_SHORTCUT } from "../shortcuts/shortcuts";
import { PlanIcon } from "../ui/icons";

export function ModeBanner() {
  const mode = usePlanStore((s) => s.mode);
  if (mode !== "plan") return null;
  return (
    <div className="mx-auto w-full max-w-3xl px-3 sm:px-6">
      <div
        data-testid="plan-banner"
        role="status"
        className="mb-2 flex items-start gap-2 rounded-xl border border-accent/40 bg-accent/10 px-4 py-2 text-sm"
      >
        <PlanIcon className="mt-0.5 shrink-0" />
        <p className="flex-1">
          <strong>Plan mode</strong> — the agent investigates and writes a plan (side panel) but changes nothing. Review
          or edit it, then <strong>Approve and build</strong>, or switch back with {MODE_SHORTCUT}.
        </p>
      </div>
    </div>
  );
}
