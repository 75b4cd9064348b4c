// The numbers a person sees, through the real server on the demo model: one context figure everywhere (the meter's
// headline and breakdown, GET /context, the conversation's contextUsage, the live usage chunks), "Compress now"
// that cannot gain, and the demo model doing what it was asked after a task hint.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import { jsonRequest, messageText } from "./helpers.ts";

type Usage = {
  inputTokens: number;
  breakdown: { system: number; tools: number; summary: number; messages: number; hints: number };
};
type View = { messages: Array<{ role: string; parts: Array<{ type: string; text?: string }> }>; contextUsage: Usage };
type ContextView = { usage: Usage; messageTokens: number[]; summary: string | null };

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer({ env: { HINTLINE_DEMO_WORD_DELAY_MS: "0" } });
});

afterAll(async () => {
  await server?.stop();
});

const sum = (b: Usage["breakdown"]) => b.system + b.tools + b.summary + b.messages + b.hints;

async function figures(id: string) {
  const [{ body: view }, { body: context }] = await Promise.all([
    getJson<View>(`${server.url}/api/conversations/${id}`),
    getJson<ContextView>(`${server.url}/api/conversations/${id}/context`),
  ]);
  return { view, context };
}

describe("one context figure", () => {
  it("/context, contextUsage, the breakdown and the live chunks agree, and only compression lowers the figure", async () => {
    const id = `fig-${Date.now()}`;
    const turns = [
      "hello",
      "add tasks: draft; review; publish",
      "start 2",
      "write 120 words about rivers",
      "what's left?",
      "finish 1",
      "write 200 words about lakes",
    ];
    const seen: Array<{ turn: string; figure: number; live: number[]; compressed: boolean }> = [];
    for (const [i, text] of turns.entries()) {
      // Past the third turn the window shrinks, so that later turns reach the trigger and compress.
      if (i === 3) {
        const patch = await fetch(
          `${server.url}/api/conversations/${id}`,
          jsonRequest("PATCH", { settings: { context: { contextWindow: 1500 } } }),
        );
        expect(patch.status).toBe(200);
      }
      const { chunks } = await chat(server.url, { conversationId: id, text });
      const live = chunks.filter((c) => c.type === "data-context-usage").map((c) => c.data as Usage);
      const compressed = chunks.some((c) => c.type === "data-compression");
      const { view, context } = await figures(id);
      // One figure: the conversation's, the context endpoint's, and the sum of the breakdown.
      expect({ turn: text, figure: view.contextUsage.inputTokens }).toEqual({
        turn: text,
        figure: context.usage.inputTokens,
      });
      expect(sum(view.contextUsage.breakdown)).toBe(view.contextUsage.inputTokens);
      expect(view.contextUsage.breakdown).toEqual(context.usage.breakdown);
      // The per-message counts of /context are the summary, the messages and the hints of the breakdown.
      const { breakdown } = context.usage;
      expect(context.messageTokens.reduce((a, b) => a + b, 0)).toBe(
        breakdown.summary + breakdown.messages + breakdown.hints,
      );
      // Every live chunk is a figure of the same kind, and they never go down within a reply (no compression
      // mid-reply here), ending at the stored figure.
      for (const u of live) expect(sum(u.breakdown)).toBe(u.inputTokens);
      const liveFigures = live.map((u) => u.inputTokens);
      expect(liveFigures.length).toBeGreaterThanOrEqual(2);
      for (let k = 1; k < liveFigures.length; k++) expect(liveFigures[k]).toBeGreaterThanOrEqual(liveFigures[k - 1]!);
      expect({ turn: text, live: liveFigures.at(-1), b: live.at(-1)?.breakdown }).toEqual({
        turn: text,
        live: context.usage.inputTokens,
        b: breakdown,
      });
      seen.push({ turn: text, figure: context.usage.inputTokens, live: liveFigures, compressed });
    }
    // The figure grows turn by turn, and drops only at a turn that compressed.
    expect(seen.some((s) => s.compressed)).toBe(true);
    for (let k = 1; k < seen.length; k++) {
      const before = seen[k - 1]!;
      const now = seen[k]!;
      if (!now.compressed)
        expect({ turn: now.turn, rose: now.figure > before.figure }).toEqual({ turn: now.turn, rose: true });
      // Within a reply, the first live figure continues from the figure before it (nothing dropped).
      if (!now.compressed) expect(now.live[0]).toBeGreaterThanOrEqual(before.figure);
    }
    // At the turn that compressed, the figure the reply starts from (after the compression, before its own words) is
    // below the figure before it; the reply's own words may then take it higher again.
    const compressedTurn = seen.findIndex((s) => s.compressed);
    expect(seen[compressedTurn]!.live[0]).toBeLessThan(seen[compressedTurn - 1]!.figure);
  });
});

describe("compress now", () => {
  it("says so and changes nothing when compression cannot gain", async () => {
    const id = `nogain-${Date.now()}`;
    await chat(server.url, { conversationId: id, text: "hello" });
    const before = await figures(id);
    const response = await fetch(`${server.url}/api/conversations/${id}/compact`, { method: "POST" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { compressed: boolean; message?: string };
    expect(body).toEqual({ compressed: false, message: expect.stringMatching(/^Nothing to compress yet: /) });
    const after = await figures(id);
    expect(after.view.messages).toEqual(before.view.messages);
    expect(after.context.summary).toBeNull();
    expect(after.context.usage.inputTokens).toBe(before.context.usage.inputTokens);
  });

  it("does not store a summary larger than what it would replace", async () => {
    const id = `bigger-${Date.now()}`;
    // Short messages and short answers: the demo model's five-section summary of them is larger than they are.
    for (const text of ["what time is it?", "what time is it?", "what time is it?"])
      await chat(server.url, { conversationId: id, text });
    const before = await figures(id);
    const response = await fetch(`${server.url}/api/conversations/${id}/compact`, { method: "POST" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      compressed: boolean;
      message?: string;
      compression?: { tokensBefore: number; tokensAfter: number };
    };
    expect(body).toEqual({ compressed: false, message: expect.stringMatching(/^Nothing to compress yet: /) });
    const after = await figures(id);
    expect(after.view.messages).toEqual(before.view.messages);
    expect(after.context.summary).toBeNull();
  });

  it("compresses when it gains, and the figures before and after follow the one definition", async () => {
    const id = `gain-${Date.now()}`;
    for (const n of [300, 300, 300])
      await chat(server.url, { conversationId: id, text: `write ${n} words about rivers` });
    await chat(server.url, { conversationId: id, text: "hello" });
    const before = await figures(id);
    const response = await fetch(`${server.url}/api/conversations/${id}/compact`, { method: "POST" });
    const body = (await response.json()) as {
      compressed: boolean;
      compression: { tokensBefore: number; tokensAfter: number };
    };
    expect(body.compressed).toBe(true);
    const after = await figures(id);
    expect(body.compression.tokensBefore).toBe(before.context.usage.inputTokens);
    expect(body.compression.tokensAfter).toBe(after.context.usage.inputTokens);
    expect(body.compression.tokensAfter).toBeLessThan(body.compression.tokensBefore);
  });
});

describe("the demo model after a task hint", () => {
  it("reads the open tasks from the hint, which lists them, and does what was asked", async () => {
    const id = `demo-ask-${Date.now()}`;
    await chat(server.url, { conversationId: id, text: "add tasks: draft; review" });
    // A task edit by the person: the next reply starts with a tasks hint.
    const add = await fetch(`${server.url}/api/conversations/${id}/tasks`, jsonRequest("POST", { subject: "publish" }));
    expect(add.status).toBe(201);
    const { chunks, text } = await chat(server.url, { conversationId: id, text: "write 30 words about rivers" });
    const calls = chunks.filter((c) => c.type === "tool-input-available").map((c) => c.toolName);
    expect(calls).toEqual([]);
    expect(text.split(/\s+/).filter((w) => /rivers/i.test(w)).length).toBeGreaterThan(0);
    expect(text).not.toMatch(/Here is the task list/);
    expect(text.trim().split(/\s+/)).toHaveLength(30);
  });

  it("lays the task list out as a markdown list, one task per line", async () => {
    const id = `demo-list-${Date.now()}`;
    await chat(server.url, { conversationId: id, text: "add tasks: draft; review; publish" });
    const { text } = await chat(server.url, { conversationId: id, text: "what's left?" });
    const { body } = await getJson<View>(`${server.url}/api/conversations/${id}`);
    expect(messageText(body.messages.at(-1) as never)).toBe(text);
    expect(text).toMatch(/^- #1 draft — pending$/m);
    expect(text).toMatch(/^- #2 review — pending$/m);
    expect(text).toMatch(/^- #3 publish — pending$/m);
  });
});
