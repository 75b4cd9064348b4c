// Accounts mode's budgets: the budget an admin set per user, and what every model call of a user spent, summed per
// quarter hour (UTC) in one upsert per call, so every instance counts into the same rows and a restart loses nothing.
import { getDb } from "./client.ts";

/** A quarter hour: every time zone's offset today is a multiple of it, so a local day is a range of quarters. */
export const QUARTER_MS = 15 * 60 * 1000;

export type StoredBudget = { tokensPerDay: number | null; usdPerMonth: number | null };

/** Adds one model call's figures to its user's quarter hour (the row is made by the first call in it). */
export async function addUsage({
  userId,
  at,
  tokens,
  usd,
}: {
  userId: string;
  at: Date;
  tokens: number;
  usd: number;
}): Promise<void> {
  const quarter = Math.floor(at.getTime() / QUARTER_MS);
  await (await getDb()).$executeRaw`INSERT INTO "UsageQuarter" ("userId", "quarter", "tokens", "usd", "calls")
    VALUES (${userId}, ${quarter}, ${BigInt(tokens)}, ${usd}, 1)
    ON CONFLICT ("userId", "quarter") DO UPDATE SET "tokens" = "UsageQuarter"."tokens" + excluded."tokens",
      "usd" = "UsageQuarter"."usd" + excluded."usd", "calls" = "UsageQuarter"."calls" + 1`;
}

/** What the user spent in [from, to): one sum over the primary key's range. */
export async function usageBetween({
  userId,
  from,
  to,
}: {
  userId: string;
  from: Date;
  to: Date;
}): Promise<{ tokens: number; usd: number }> {
  const sum = await (await getDb()).usageQuarter.aggregate({
    where: {
      userId,
      quarter: { gte: Math.floor(from.getTime() / QUARTER_MS), lt: Math.floor(to.getTime() / QUARTER_MS) },
    },
    _sum: { tokens: true, usd: true },
  });
  return { tokens: Number(sum._sum.tokens ?? 0), usd: sum._sum.usd ?? 0 };
}

export async function storedBudgets({ ids }: { ids: readonly string[] }): Promise<Map<string, StoredBudget>> {
  if (ids.length === 0) return new Map();
  const rows = await (await getDb()).userBudget.findMany({
    where: { userId: { in: [...ids] } },
    select: { userId: true, tokensPerDay: true, usdPerMonth: true },
  });
  return new Map(rows.map((r) => [r.userId, { tokensPerDay: r.tokensPerDay, usdPerMonth: r.usdPerMonth }]));
}

/** Sets the figures given (null clears one to the default); one left out keeps its value. */
export async function setStoredBudget({
  userId,
  tokensPerDay,
  usdPerMonth,
}: {
  userId: string;
  tokensPerDay?: number | null;
  usdPerMonth?: number | null;
}): Promise<void> {
  const patch = {
    ...(tokensPerDay === undefined ? {} : { tokensPerDay }),
    ...(usdPerMonth === undefined ? {} : { usdPerMonth }),
  };
  await (await getDb()).userBudget.upsert({ where: { userId }, create: { userId, ...patch }, update: patch });
}

/** The settings of the user's most recently active conversation of their own (not a subagent's), or undefined. */
export async function latestConversationSettings({ ownerId }: { ownerId: string }): Promise<unknown> {
  const row = await (await getDb()).conversation.findFirst({
    where: { ownerId, parentId: null },
    orderBy: { updatedAt: "desc" },
    select: { settings: true },
  });
  return row?.settings ?? undefined;
}
