"use client";
// A person's usage against their budget (accounts mode), in words: today's tokens and this month's dollars, each with
// its limit (or none) and when it resets in the person's time zone. The person's page and the admin's list show it.
import type { BudgetView, UsageView } from "@/lib/chat/budgets";

const tokens = (n: number) => Math.round(n).toLocaleString("en-US");
const dollars = (n: number) => `$${n.toFixed(2)}`;

/** "00:00 on 7 Dec" in `zone`, as the server's refusal words it. */
function resetAt(iso: string, zone: string): string {
  const date = new Date(iso);
  const time = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit" }).format(date);
  const day = new Intl.DateTimeFormat("en-US", { timeZone: zone, day: "numeric" }).format(date);
  const month = new Intl.DateTimeFormat("en-US", { timeZone: zone, month: "short" }).format(date);
  return `${time} on ${day} ${month}`;
}

export function usageLines(budget: BudgetView, usage: UsageView): { day: string; month: string } {
  const zone = usage.timeZone;
  const dayLimit = budget.tokensPerDay === null ? "no daily limit" : `of ${tokens(budget.tokensPerDay)}`;
  const monthLimit = budget.usdPerMonth === null ? "no monthly limit" : `of ${dollars(budget.usdPerMonth)}`;
  return {
    day: `Today: ${tokens(usage.day.tokens)} tokens ${dayLimit} · resets at ${resetAt(usage.day.resetsAt, zone)} (${zone})`,
    month: `This month: ${dollars(usage.month.usd)} ${monthLimit} · resets at ${resetAt(usage.month.resetsAt, zone)} (${zone})`,
  };
}

export function BudgetUsage({ budget, usage, testId }: { budget: BudgetView; usage: UsageView; testId: string }) {
  const lines = usageLines(budget, usage);
  const over =
    (budget.tokensPerDay !== null && usage.day.tokens >= budget.tokensPerDay) ||
    (budget.usdPerMonth !== null && usage.month.usd >= budget.usdPerMonth);
  return (
    <div data-testid={testId} data-over={over} className="text-sm">
      <p data-testid={`${testId}-day`}>{lines.day}</p>
      <p data-testid={`${testId}-month`}>{lines.month}</p>
      {over && <p className="text-danger">Budget used up: new messages wait until it resets.</p>}
    </div>
  );
}
