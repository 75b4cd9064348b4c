"use client";
// The signed-in person's usage against their budget (accounts mode), on their own page.
import { useEffect, useState } from "react";
import type { Me } from "@/lib/chat/account-pages";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { section } from "./admin-styles";
import { BudgetUsage } from "./budget-usage";

export function OwnUsage() {
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    apiFetch<Me>("/api/me")
      .then(setMe)
      .catch((e: unknown) => setError(failureText(e)));
  }, []);
  return (
    <section aria-labelledby="usage-heading" className={section}>
      <h2 id="usage-heading" className="font-semibold">
        Your usage
      </h2>
      <p className="mt-1 text-sm text-muted">
        Every model call of yours counts: replies, subagents, titles and summaries. An admin sets the budget.
      </p>
      <div className="mt-3">
        {me?.budget && me.usage && <BudgetUsage budget={me.budget} usage={me.usage} testId="own-usage" />}
        {!me && !error && <p className="text-sm text-muted">Loading…</p>}
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        )}
      </div>
    </section>
  );
}
