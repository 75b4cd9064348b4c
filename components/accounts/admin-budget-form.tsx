"use client";
// The admin's form for one user's budget: tokens per day and dollars per month; an empty field clears the user's own
// figure, so the server's default (HINTLINE_BUDGET_*) applies again.
import { type FormEvent, useState } from "react";
import type { BudgetView } from "@/lib/chat/budgets";
import { button, primary } from "./admin-styles";

export type BudgetPatch = { tokensPerDay: number | null; usdPerMonth: number | null };

const field = "w-36 rounded-lg border border-border bg-transparent px-2 py-1 text-sm";

/** The user's own figure as the field shows it: empty when the default (or nothing) applies. */
const own = (budget: BudgetView, key: keyof BudgetPatch) =>
  budget.source[key] === "user" && budget[key] !== null ? String(budget[key]) : "";

export function AdminBudgetForm({
  email,
  budget,
  busy,
  onSave,
  onCancel,
}: {
  email: string;
  budget: BudgetView;
  busy: boolean;
  onSave: (patch: BudgetPatch) => void;
  onCancel: () => void;
}) {
  const [tokens, setTokens] = useState(own(budget, "tokensPerDay"));
  const [usd, setUsd] = useState(own(budget, "usdPerMonth"));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const figure = (text: string) => (text.trim() === "" ? null : Number(text));
    onSave({ tokensPerDay: figure(tokens), usdPerMonth: figure(usd) });
  };
  return (
    <form
      data-testid="budget-form"
      aria-label={`Budget of ${email}`}
      onSubmit={submit}
      className="flex flex-wrap items-end gap-3 py-2"
    >
      <label className="flex flex-col gap-1 text-xs text-muted">
        Tokens per day
        <input
          data-testid="budget-tokens"
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          placeholder="default"
          value={tokens}
          onChange={(e) => setTokens(e.target.value)}
          className={field}
        />
      </label>
      <label className="flex flex-col gap-1 text-xs text-muted">
        Dollars per month
        <input
          data-testid="budget-usd"
          type="number"
          min={0}
          step="any"
          inputMode="decimal"
          placeholder="default"
          value={usd}
          onChange={(e) => setUsd(e.target.value)}
          className={field}
        />
      </label>
      <button type="submit" data-testid="budget-save" disabled={busy} className={primary}>
        Save budget
      </button>
      <button type="button" onClick={onCancel} className={button}>
        Cancel
      </button>
      <p className="w-full text-xs text-muted">An empty field uses the server's default (none unless it sets one).</p>
    </form>
  );
}
