// Budgets in accounts mode: what a user may spend (their own budget, else the environment's default), what they spent
// today and this month in their time zone (summed from the stored usage, so every instance and a restart agree), and
// the refusal of a message over budget before anything is written or any model is called. Outside accounts mode no
// budget applies.
import { type Budget, type BudgetWindows, budgetRefusal, budgetWindows, type Spent } from "../agent/budget.ts";
import { canonicalTimeZone, resolveSettings } from "../agent/settings.ts";
import { ApiError } from "../api/errors.ts";
import { authMode } from "../auth/mode.ts";
import type { Viewer } from "../auth/viewer.ts";
import { now } from "../clock.ts";
import { latestConversationSettings, type StoredBudget, storedBudgets, usageBetween } from "../db/usage.ts";
import { log } from "../log/logger.ts";

export type BudgetView = Budget & {
  /** Where each figure comes from: the user's own (set by an admin), the environment's default, or none. */
  source: { tokensPerDay: FigureSource; usdPerMonth: FigureSource };
};
type FigureSource = "user" | "default" | "none";

export type UsageView = {
  timeZone: string;
  day: Spent & { from: string; resetsAt: string };
  month: Spent & { from: string; resetsAt: string };
};

const warned = new Set<string>();

/** A default from the environment: a non-negative number, else none (a value that is not one is said once in the log). */
function envLimit(name: string): number | null {
  const raw = process.env[name]?.trim();
  if (!raw) return null;
  const value = Number(raw);
  if (Number.isFinite(value) && value >= 0) return value;
  if (!warned.has(name)) {
    warned.add(name);
    log().warn({ variable: name }, "a budget default is not a non-negative number; it is ignored");
  }
  return null;
}

/** The budget that applies to a user: each figure their own, else the environment's default. */
export function effectiveBudget(stored: StoredBudget | undefined): BudgetView {
  const defaults = {
    tokensPerDay: envLimit("HINTLINE_BUDGET_TOKENS_PER_DAY"),
    usdPerMonth: envLimit("HINTLINE_BUDGET_USD_PER_MONTH"),
  };
  const pick = (key: keyof Budget): [number | null, FigureSource] => {
    const own = stored?.[key];
    if (own !== null && own !== undefined) return [own, "user"];
    return [defaults[key], defaults[key] === null ? "none" : "default"];
  };
  const [tokensPerDay, tokensSource] = pick("tokensPerDay");
  const [usdPerMonth, usdSource] = pick("usdPerMonth");
  return { tokensPerDay, usdPerMonth, source: { tokensPerDay: tokensSource, usdPerMonth: usdSource } };
}

/**
 * The person's time zone: that of the conversation they wrote in last (each new conversation takes their browser's),
 * else `fallback` (the zone a first message brings), else UTC.
 */
async function zoneOf(userId: string, fallback?: string): Promise<string> {
  const settings = await latestConversationSettings({ ownerId: userId });
  if (settings !== undefined) return resolveSettings(settings).injection.timezone;
  return (fallback && canonicalTimeZone(fallback)) || "UTC";
}

async function spentIn(userId: string, windows: BudgetWindows): Promise<{ day: Spent; month: Spent }> {
  const [day, month] = await Promise.all([
    usageBetween({ userId, ...windows.day }),
    usageBetween({ userId, ...windows.month }),
  ]);
  return { day, month };
}

/** A user's budget and their usage against it, as GET /api/me and the admin's list show them. */
export async function budgetAndUsage(
  userId: string,
  stored?: StoredBudget,
): Promise<{ budget: BudgetView; usage: UsageView }> {
  const budget = effectiveBudget(stored ?? (await storedBudgets({ ids: [userId] })).get(userId));
  const windows = budgetWindows(now(), await zoneOf(userId));
  const spent = await spentIn(userId, windows);
  const window = (w: BudgetWindows["day"], s: Spent) => ({
    tokens: s.tokens,
    usd: s.usd,
    from: w.from.toISOString(),
    resetsAt: w.to.toISOString(),
  });
  return {
    budget,
    usage: {
      timeZone: windows.zone,
      day: window(windows.day, spent.day),
      month: window(windows.month, spent.month),
    },
  };
}

/**
 * A 429 `budget_exceeded` naming when the budget resets, when the signed-in user of accounts mode has used up a limit
 * that applies to them; nothing otherwise. Called before anything of the request is written or any model is called.
 */
export async function refuseOverBudget(viewer: Viewer, fallbackZone?: string): Promise<void> {
  if (authMode() !== "accounts" || viewer.kind !== "user") return;
  const budget = effectiveBudget((await storedBudgets({ ids: [viewer.userId] })).get(viewer.userId));
  if (budget.tokensPerDay === null && budget.usdPerMonth === null) return;
  const windows = budgetWindows(now(), await zoneOf(viewer.userId, fallbackZone));
  const refusal = budgetRefusal(budget, await spentIn(viewer.userId, windows), windows);
  if (!refusal) return;
  const seconds = Math.max(1, Math.ceil((refusal.resetsAt.getTime() - now().getTime()) / 1000));
  throw new ApiError("budget_exceeded", refusal.message, undefined, { retryAfterSeconds: seconds });
}
