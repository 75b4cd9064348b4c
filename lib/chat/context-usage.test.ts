import { describe, expect, it } from "vitest";
import { summaryMessageText } from "../agent/compression.ts";
import { countModelMessageTokens } from "../agent/context-usage.ts";
import { defaultSettings } from "../agent/settings.ts";
import { countTokens } from "../agent/token-count.ts";
import type { ChatMessage, ContextUsage } from "../chat-message.ts";
import { sharedCacheSizes } from "../bounded-map.ts";
import { contextUsageFor, MESSAGE_TOKENS_MAX_BYTES, messageTokens } from "./context-usage.ts";
import { modelMessagesOf } from "./model-messages.ts";

const settings = defaultSettings();
const msg = (id: string, role: "user" | "assistant", text: string): ChatMessage => ({
  id,
  role,
  parts: [{ type: "text", text }],
});
const hint = (id: string, text: string) =>
  ({
    type: "data-hint",
    id,
    data: { source: { label: "S", sublabel: "R" }, fields: {}, text, createdAt: "" },
  }) as ChatMessage["parts"][number];
const sum = (u: ContextUsage) => Object.values(u.breakdown!).reduce((a, b) => a + b, 0);
const base = { settings, contextWindow: 1000, system: "system prompt", tools: 40 };

describe("contextUsageFor: the size of the next model input", () => {
  const history = [
    msg("u1", "user", "hello there"),
    msg("a1", "assistant", "general kenobi ".repeat(50)),
    msg("u2", "user", "next question"),
  ];

  it("is system prompt + tools + summary + messages + hints, and the headline is the breakdown's sum", () => {
    const withHint: ChatMessage = {
      id: "a2",
      role: "assistant",
      parts: [hint("h", "<system-reminder>x</system-reminder>"), { type: "text", text: "ok" }],
    };
    const all = [...history, withHint];
    const usage = contextUsageFor({ ...base, summary: "a summary", history: all });
    const b = usage.breakdown!;
    expect(b.system).toBe(countTokens("system prompt"));
    expect(b.tools).toBe(40);
    expect(b.summary).toBe(countModelMessageTokens([{ role: "user", content: summaryMessageText("a summary") }]));
    expect(b.hints).toBe(countModelMessageTokens([{ role: "user", content: "<system-reminder>x</system-reminder>" }]));
    // Every message exactly as the model receives it.
    expect(b.messages + b.hints).toBe(countModelMessageTokens(modelMessagesOf(all)));
    expect(usage.inputTokens).toBe(sum(usage));
    expect(usage).toMatchObject({ contextWindow: 1000, triggerTokens: 800, bufferStartTokens: 600 });
  });

  it("grows with every message added, and drops only when the tail starts later (a compression)", () => {
    const figures = [1, 2, 3].map((n) => contextUsageFor({ ...base, history: history.slice(0, n) }).inputTokens);
    expect(figures[1]).toBeGreaterThan(figures[0]!);
    expect(figures[2]).toBeGreaterThan(figures[1]!);
    const compressed = contextUsageFor({ ...base, history, summary: "short", tailStart: 2 });
    expect(compressed.inputTokens).toBeLessThan(figures[2]!);
    expect(compressed.inputTokens).toBe(sum(compressed));
  });

  it("counts a reply being written, and ends on the figure the stored reply then gives", () => {
    const parts: ChatMessage["parts"] = [hint("h1", "<system-reminder>time</system-reminder>")];
    const reply = (): ChatMessage => ({ id: "r", role: "assistant", parts: parts.slice() });
    const start = contextUsageFor({ ...base, history });
    const withHint = contextUsageFor({ ...base, history, reply: reply() });
    parts.push({ type: "text", text: "the answer is forty two ".repeat(20) });
    const withText = contextUsageFor({ ...base, history, reply: reply() });
    expect(withHint.inputTokens).toBeGreaterThan(start.inputTokens);
    expect(withText.inputTokens).toBeGreaterThan(withHint.inputTokens);
    expect(withText.breakdown!.hints).toBe(withHint.breakdown!.hints);
    const stored: ChatMessage = { ...reply(), metadata: { status: "complete" } as ChatMessage["metadata"] };
    expect(contextUsageFor({ ...base, history: [...history, stored] })).toEqual(withText);
  });

  it("follows a compression the reply made: its summary and the messages it kept", () => {
    const reply: ChatMessage = {
      id: "r",
      role: "assistant",
      parts: [
        {
          type: "data-compression",
          id: "c",
          data: {
            tokensBefore: 0,
            tokensAfter: 0,
            summarizedMessages: 2,
            keptMessages: 1,
            fallback: false,
            summary: "## Task Overview\nx",
            createdAt: "",
          },
        },
        { type: "text", text: "ok" },
      ],
    };
    const usage = contextUsageFor({ ...base, history, reply });
    const expected = contextUsageFor({
      ...base,
      history,
      summary: "## Task Overview\nx",
      tailStart: 2,
      reply: msg("r", "assistant", "ok"),
    });
    expect(usage).toEqual(expected);
  });
});

describe("contextUsageFor: a reply object changed in place", () => {
  it("counts what the reply holds now, not what it held the first time", () => {
    const history = [msg("u1", "user", "hello")];
    const reply: ChatMessage = { id: "r2", role: "assistant", parts: [] };
    const base2 = { settings, contextWindow: 1000, system: "s", tools: 0, history };
    const empty = contextUsageFor({ ...base2, reply }).inputTokens;
    reply.parts.push({ type: "text", text: "now with words in it ".repeat(10) });
    expect(contextUsageFor({ ...base2, reply }).inputTokens).toBeGreaterThan(empty + 40);
  });
});

describe("the cache of stored messages' token counts", () => {
  it("stays within its byte budget however many messages are counted, and long ids count", () => {
    const id = "i".repeat(400); // message ids are chosen by clients
    for (let i = 0; i < 12_000; i++)
      messageTokens({ ...msg(`${id}${i}`, "user", "hi"), metadata: { createdAt: "2026-07-01T12:00:00.000Z" } });
    const cache = sharedCacheSizes()["message-tokens"]!;
    expect(cache.bytes).toBeLessThanOrEqual(MESSAGE_TOKENS_MAX_BYTES);
    expect(cache.entries).toBeLessThan(12_000);
  });

  it("keeps every count of a 20,000-message conversation with UUIDs for ids, so that opening it again counts nothing", () => {
    const conversation = Array.from({ length: 20_000 }, (_, i) => ({
      ...msg(
        `${crypto.randomUUID().slice(0, 30)}${String(i).padStart(6, "0")}`,
        i % 2 ? "assistant" : "user",
        `message ${i}`,
      ),
      metadata: { createdAt: "2026-07-01T12:00:00.000Z", status: "incomplete" as const },
    }));
    for (const message of conversation) messageTokens(message);
    // Read again from the database: new objects, the same rows.
    for (const message of conversation) messageTokens(structuredClone(message));
    const cache = sharedCacheSizes()["message-tokens"]!;
    // Before (4 MiB): 13,617 kept; read in order, the second pass found none of its counts.
    expect(cache.entries).toBe(20_000);
  });
});
