// Anthropic's prompt cache through the real server and the Anthropic fake (which caches only at `cache_control`
// breakpoints, at most 4, looking back at most 20 blocks, as Anthropic documents): over 10+ calls with hints, tool
// calls and the person's task edit, every request marks the system prompt, its newest block and the previous call's
// newest block, never more than 4; every call reads all the previous one sent, so the cached share grows; and each
// call's reads and writes are recorded in metadata.usage and priced with the write premium. The server asks for the
// 1-hour cache (HINTLINE_ANTHROPIC_CACHE_TTL=1h) on Sonnet 5.5: every mark carries "ttl":"1h", and the calls are
// priced at Sonnet 5.5's own figures (reads 0.05×, 1-hour writes 2×).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AnthropicFake,
  MAX_BREAKPOINTS,
  type RecordedRequest,
  startAnthropicFake,
} from "../support/anthropic-fake.ts";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import type { FakeReply } from "../support/fake-core.ts";
import { type ApiMessage, jsonRequest } from "./helpers.ts";

let fake: AnthropicFake;
let server: AppServer;

beforeAll(async () => {
  fake = await startAnthropicFake({ apiKey: "sk-ant" });
  server = await startAppServer({
    env: {
      ANTHROPIC_API_KEY: "sk-ant",
      ANTHROPIC_BASE_URL: fake.url,
      HINTLINE_MODEL: "anthropic/claude-sonnet-5-5",
      HINTLINE_ANTHROPIC_CACHE_TTL: "1h",
      HINTLINE_MAX_RETRIES: "0",
    },
  });
});
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

type Usage = { inputTokens?: number; cachedInputTokens?: number; cacheWriteTokens?: number; outputTokens?: number };
type WireMessage = { role: string; content: string | Array<{ type: string; text?: string }> };

/** The path (as the fake names breakpoints) of the request's last content block. */
function lastBlockPath(request: RecordedRequest): string {
  const messages = request.body.messages as WireMessage[];
  const i = messages.length - 1;
  const content = messages[i]!.content;
  return typeof content === "string" ? `messages.${i}.content` : `messages.${i}.content.${content.length - 1}`;
}

const prose = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${(i * 7) % 13}`).join(" ");

describe("Anthropic cache breakpoints", () => {
  it("marks the system prompt, the newest block and the previous call's, and reads all the previous call sent", async () => {
    const id = `anthropic-cache-${Date.now()}`;
    const url = server.url;
    const tool = (name: string, args: unknown): FakeReply => ({ kind: "tools", calls: [{ name, arguments: args }] });
    const turn = async (text: string, ...replies: FakeReply[]) => {
      fake.enqueue(...replies, { text: `${prose(60, text.slice(0, 3))}.` });
      const { response } = await chat(url, { conversationId: id, text, timezone: "Europe/Berlin" });
      expect(response.status).toBe(200);
    };
    await turn(
      "Plan the move: pack, drive, unpack",
      tool("TaskCreate", { subject: "Pack", description: "boxes" }),
      tool("TaskCreate", { subject: "Drive", description: "van" }),
    );
    await turn("start packing", tool("TaskUpdate", { task_id: "1", status: "in_progress" }));
    // The person edits the task panel: the agent hears of it (a hint) on its next call.
    expect(
      (await fetch(`${url}/api/conversations/${id}/tasks/2`, jsonRequest("PATCH", { subject: "Drive the van" })))
        .status,
    ).toBe(200);
    await turn("what is left?", tool("TaskList", {}));
    await turn("packing is done", tool("TaskUpdate", { task_id: "1", status: "completed" }));
    await turn("how far are we?");

    const requests = fake.requests;
    expect(requests.length).toBeGreaterThanOrEqual(10);
    // Every mark, as sent, asks for the 1-hour cache (one TTL per request: none shorter comes before a longer one).
    for (const request of requests) {
      const marks = JSON.stringify(request.body).match(/"cache_control":\{[^}]*\}/g) ?? [];
      expect(marks.length).toBe(request.cache!.breakpoints.length);
      expect(new Set(marks)).toEqual(new Set(['"cache_control":{"type":"ephemeral","ttl":"1h"}']));
    }
    // The hints reached the model as ordinary blocks of the history.
    expect(JSON.stringify(requests.at(-1)!.body.messages)).toContain("Drive the van");
    const shares: number[] = [];
    const totals = { read: 0, all: 0 };
    const conversationShares: number[] = [];
    for (const [i, request] of requests.entries()) {
      const verdict = request.cache!;
      totals.read += verdict.readTokens;
      totals.all += verdict.readTokens + verdict.writeTokens + verdict.inputTokens;
      conversationShares.push(totals.read / totals.all);
      const label = `call ${i + 1}: ${verdict.breakpoints.join(", ")}`;
      expect(verdict.breakpoints.length, label).toBeLessThanOrEqual(MAX_BREAKPOINTS);
      // 1. after the tools and the system prompt
      expect(verdict.breakpoints[0], label).toMatch(/^system/);
      // 2. the newest message of this call
      expect(verdict.breakpoints, label).toContain(lastBlockPath(request));
      if (i === 0) {
        expect(verdict.breakpoints, label).toHaveLength(2);
        continue;
      }
      // 3. the previous call's newest message, kept, so that this call reads everything the previous one sent
      const previous = requests[i - 1]!;
      expect(verdict.breakpoints, label).toContain(lastBlockPath(previous));
      expect(verdict.breakpoints, label).toHaveLength(3);
      const previousTotal = previous.cache!.inputTokens + previous.cache!.readTokens + previous.cache!.writeTokens;
      expect(verdict.readTokens, label).toBe(previousTotal);
      shares.push(verdict.readTokens / (verdict.readTokens + verdict.writeTokens + verdict.inputTokens));
    }
    // What is read from the cache grows call after call (within a reply and across replies), and with it the
    // conversation's cached share (the meter's figure); each call's own share stays high (the new part is small).
    const reads = requests.map((r) => r.cache!.readTokens);
    for (let i = 1; i < reads.length; i++) expect(reads[i], `reads: ${reads.join(" ")}`).toBeGreaterThan(reads[i - 1]!);
    for (let i = 1; i < conversationShares.length; i++)
      expect(conversationShares[i]).toBeGreaterThan(conversationShares[i - 1]!);
    expect(Math.min(...shares)).toBeGreaterThan(0.8);
    console.log(
      `anthropic cache: ${requests.length} calls; each call's cached share ${shares.map((s) => `${Math.round(100 * s)}`).join(" ")} %; ` +
        `the conversation's ${conversationShares.map((s) => `${Math.round(100 * s)}`).join(" → ")} %`,
    );

    // metadata.usage: every call's reads and writes as the provider reported them (its input counts all three).
    const { body: view } = await getJson<{
      messages: ApiMessage[];
      contextUsage: { cache: { lastCall: { inputTokens: number; cachedInputTokens: number } } };
    }>(`${url}/api/conversations/${id}`);
    const usage = view.messages.flatMap((m) =>
      m.role === "assistant" ? ((m.metadata?.usage as Usage[] | undefined) ?? []) : [],
    );
    expect(usage).toHaveLength(requests.length);
    expect(usage.map((u) => u.cachedInputTokens)).toEqual(requests.map((r) => r.cache!.readTokens));
    expect(usage.map((u) => u.cacheWriteTokens ?? 0)).toEqual(requests.map((r) => r.cache!.writeTokens));
    expect(usage.map((u) => u.inputTokens)).toEqual(
      requests.map((r) => r.cache!.inputTokens + r.cache!.readTokens + r.cache!.writeTokens),
    );
    // The meter's Cache % is the last call's read share.
    expect(view.contextUsage.cache.lastCall).toEqual({
      inputTokens: usage.at(-1)!.inputTokens,
      cachedInputTokens: usage.at(-1)!.cachedInputTokens,
    });

    // GET …/context: each call priced with Sonnet 5.5's reads at 0.05× and 1-hour writes at 2× of its $3 per million.
    const { body: context } = await getJson<{ cache: { calls: Array<Usage & { cost: number | null }> } }>(
      `${url}/api/conversations/${id}/context`,
    );
    for (const [i, call] of context.cache.calls.entries()) {
      const u = usage[i]!;
      const plain = u.inputTokens! - u.cachedInputTokens! - (u.cacheWriteTokens ?? 0);
      const expected =
        (plain * 3 + u.cachedInputTokens! * 0.15 + (u.cacheWriteTokens ?? 0) * 6 + u.outputTokens! * 15) / 1e6;
      expect(call.cost).toBeCloseTo(expected, 12);
      expect(call.cacheWriteTokens ?? 0).toBe(u.cacheWriteTokens ?? 0);
    }
  });
});

describe("the auto strategy's cost model", () => {
  it("takes α and w from the model's own prices: Sonnet 5.5's 0.05× reads and the 1-hour cache's 2× writes", async () => {
    const id = `anthropic-prices-${Date.now()}`;
    fake.enqueue({ text: "Hello." });
    expect((await chat(server.url, { conversationId: id, text: "hi" })).response.status).toBe(200);
    const { body } = await getJson<{ strategy: { alpha: number; alphaFrom: string; writeRatio?: number } }>(
      `${server.url}/api/conversations/${id}/context`,
    );
    // Runs after the test above (which reads every request the fake saw). No call measured yet: α is the price list's.
    expect(body.strategy).toMatchObject({ alpha: 0.05, alphaFrom: "prices", writeRatio: 2 });
  });
});
