// Budgets against a real database (SQLite and PostgreSQL) with an injected clock: concurrent model calls of one user
// all counted (the per-quarter upsert loses none); a day's edge in the person's zone (a call at 23:59 Tokyo counts
// today, the refusal names 00:00 Tokyo; at 00:00 nothing of yesterday counts); a metered model counts a streamed and a
// generated call when it ends, and a provider's forged figures count nothing rather than locking the person out.
import { generateText, streamText } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.HINTLINE_AUTH = "accounts";

const { disconnectDb, getDb } = await import("@/lib/db/client");
const { addUsage, setStoredBudget, usageBetween } = await import("@/lib/db/usage");
const { refuseOverBudget } = await import("@/lib/chat/budgets");
const { meteredModel } = await import("@/lib/chat/usage-meter");
const { setClock } = await import("@/lib/clock");
const { ApiError } = await import("@/lib/api/errors");

const run = `${process.pid}-${Date.now().toString(36)}`;
let n = 0;
async function newUser(zone?: string): Promise<string> {
  const id = `budget-${run}-${n++}`;
  const db = await getDb();
  await db.user.create({ data: { id, name: id, email: `${id}@example.test` } });
  if (zone) {
    await db.conversation.create({
      data: { id: `c-${id}`, ownerId: id, settings: { injection: { timezone: zone } } },
    });
  }
  return id;
}
const viewer = (userId: string) => ({ kind: "user" as const, userId, email: "", name: "", admin: false });
const at = (iso: string) => () => new Date(iso);

beforeAll(async () => {
  await getDb();
});
afterAll(async () => {
  setClock();
  await disconnectDb();
});

describe("usage", () => {
  it("counts every one of 40 concurrent calls into the same quarter hour", async () => {
    const userId = await newUser();
    const when = new Date("2026-12-06T10:07:00Z");
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => addUsage({ userId, at: when, tokens: 1000 + i, usd: 0.25 })),
    );
    const sum = await usageBetween({
      userId,
      from: new Date("2026-12-06T00:00:00Z"),
      to: new Date("2026-12-07T00:00:00Z"),
    });
    expect(sum.tokens).toBe(40 * 1000 + (39 * 40) / 2);
    expect(sum.usd).toBeCloseTo(10, 9);
    const row = await (await getDb()).usageQuarter.findMany({ where: { userId } });
    expect(row).toHaveLength(1);
    expect(row[0]!.calls).toBe(40);
    // More tokens than a 32-bit column holds, summed.
    await addUsage({ userId, at: when, tokens: 3_000_000_000, usd: 0 });
    expect((await usageBetween({ userId, from: when, to: new Date("2026-12-07T00:00:00Z") })).tokens).toBe(
      3_000_000_000 + sum.tokens,
    );
  });

  it("refuses at a day's last minute in the person's zone and names its midnight; at midnight yesterday is gone", async () => {
    const userId = await newUser("Asia/Tokyo");
    await setStoredBudget({ userId, tokensPerDay: 500 });
    // 23:59 on 6 Dec in Tokyo is 14:59 UTC; 00:00 on 7 Dec is 15:00 UTC.
    await addUsage({ userId, at: new Date("2026-12-06T14:59:00Z"), tokens: 500, usd: 0 });
    setClock(at("2026-12-06T14:59:30Z"));
    const refusal = await refuseOverBudget(viewer(userId)).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ code: "budget_exceeded", status: 429, retryAfterSeconds: 30 });
    expect((refusal as Error).message).toBe(
      "Your daily budget of 500 tokens is used up (500 tokens today). It resets at 00:00 on 7 Dec (Asia/Tokyo).",
    );
    setClock(at("2026-12-06T15:00:00Z"));
    await expect(refuseOverBudget(viewer(userId))).resolves.toBeUndefined();
    // Only in accounts mode: the same user as the operator of token mode is never refused.
    setClock(at("2026-12-06T14:59:30Z"));
    process.env.HINTLINE_AUTH = "token";
    try {
      await expect(refuseOverBudget(viewer(userId))).resolves.toBeUndefined();
    } finally {
      process.env.HINTLINE_AUTH = "accounts";
    }
  });

  it("counts a metered model's streamed and generated calls as they end, and forged figures as nothing", async () => {
    const userId = await newUser();
    setClock(at("2026-12-06T09:00:00Z"));
    const usage = (input: number, output: number) => ({
      inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: undefined },
      outputTokens: { total: output, text: output, reasoning: undefined },
    });
    const finish = (u: ReturnType<typeof usage>) => ({
      type: "finish" as const,
      finishReason: { unified: "stop" as const, raw: "stop" },
      usage: u,
    });
    const model = new MockLanguageModelV4({
      doStream: [
        {
          stream: convertArrayToReadableStream([{ type: "text-delta", id: "t", delta: "hi" }, finish(usage(120, 30))]),
        },
        {
          stream: convertArrayToReadableStream([
            finish({ ...usage(Number.NaN, -5), inputTokens: { ...usage(0, 0).inputTokens, total: 1e15 } }),
          ]),
        },
      ],
      doGenerate: {
        content: [{ type: "text", text: "title" }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: usage(40, 8),
        warnings: [],
      },
    });
    const metered = meteredModel({ model, info: { id: "demo/hintline-demo" } as never }, userId).model;
    const streamed = streamText({ model: metered, prompt: "go" });
    await streamed.consumeStream();
    await generateText({ model: metered, prompt: "name it" });
    const forged = streamText({ model: metered, prompt: "lie" });
    await forged.consumeStream();
    const day = { from: new Date("2026-12-06T00:00:00Z"), to: new Date("2026-12-07T00:00:00Z") };
    expect((await usageBetween({ userId, ...day })).tokens).toBe(120 + 30 + 40 + 8);
    // No owner (open and token mode): the model is left as it is.
    expect(meteredModel({ model, info: { id: "x" } as never }, null).model).toBe(model);
  });
});
