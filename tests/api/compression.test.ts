// Context accounting and compression through the real server and the OpenAI fake, with a small window.
import { describe, expect, it } from "vitest";
import { providerServerForFile } from "../support/app-server.ts";
import { countTokens } from "@/lib/agent/token-count";
import { chat, getJson } from "../support/chat-client.ts";

type WireMessage = { role: string; content: unknown };
const text = (m: WireMessage | undefined) =>
  typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");
const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${i % 7} river`).join(" ");

// Subagents off: this file's small window is sized for the other tools alone (the agent tools and the Subagents
// section would take ~900 of its 4,500 tokens; tests/api/subagents*.test.ts cover them).
const env = providerServerForFile({ HINTLINE_CONTEXT_WINDOW: "4500", HINTLINE_MAX_AGENT_DEPTH: "0" });

describe("context usage and compression", () => {
  it("warns past the buffer, compresses at the trigger, and restarts from system + summary with a fresh time hint", async () => {
    const id = `cmp-${Date.now()}`;
    const usageChunks: Array<{ inputTokens: number }> = [];
    let compressedAt = -1;
    // Long replies fill the 4500-token window; the fake answers the summary request like any other.
    env.fake.setDefault((req) => {
      const last = text((req.body.messages as WireMessage[]).at(-1));
      if (last.startsWith("Summarize the conversation below"))
        return {
          text: "## Task Overview\nRivers.\n## Current State\nWriting.\n## Important Discoveries\nNone.\n## Next Steps\nGo on.\n## Context to Preserve\nNone.",
        };
      return { text: words(180, "w") };
    });
    for (let turn = 0; turn < 12 && compressedAt < 0; turn++) {
      const { chunks } = await chat(env.server.url, { conversationId: id, text: `turn ${turn}: more please` });
      for (const c of chunks) if (c.type === "data-context-usage") usageChunks.push(c.data as { inputTokens: number });
      if (chunks.some((c) => c.type === "data-compression")) compressedAt = turn;
    }
    expect(compressedAt).toBeGreaterThan(0);

    const requests = env.fake.requests.map((r) => r.body.messages as WireMessage[]);
    // Past the buffer: the calls before the compression that carried a context hint (a reply's first call past it —
    // how many depends on how far each turn grows; every later request repeats them) state figures past the buffer
    // (2700 of the 4500-token window) and short of the trigger (3600). After the compression the agent gets the new
    // figure (checked below).
    const isContextHint = (m: WireMessage) => m.role === "user" && text(m).includes("<context-length>");
    const summaryAt = requests.findIndex((m) => text(m.at(-1)).startsWith("Summarize the conversation below"));
    const beforeCompression = requests.slice(0, summaryAt);
    const hinted = beforeCompression.flatMap((m, i) => (isContextHint(m.at(-1)!) ? [i] : []));
    expect(hinted.length).toBeGreaterThan(0);
    const warnings = hinted.map((i) => text(requests[i]!.at(-1)));
    expect(new Set(beforeCompression.flatMap((m) => m.filter(isContextHint).map(text)))).toEqual(new Set(warnings));
    for (const warning of warnings) {
      const stated = Number(
        warning.match(
          /Your current context contains (\d+) tokens\. When reaching 3600 tokens, your context will be compressed\./,
        )?.[1],
      );
      expect(stated).toBeGreaterThan(2700);
      expect(stated).toBeLessThan(3600);
    }

    // The summary call, then the reply's first call: system, summary, kept tail, and a fresh time hint.
    // (What is summarised may take more than one request, each within the window.)
    const summaryIndex = requests.findIndex((m) => text(m.at(-1)).startsWith("Summarize the conversation below"));
    const lastSummaryIndex = requests.findLastIndex((m) =>
      text(m.at(-1)).startsWith("Summarize the conversation below"),
    );
    expect(summaryIndex).toBeGreaterThan(0);
    expect(text(requests[summaryIndex]!.at(-1))).toMatch(/## Task Overview.*## Context to Preserve/s);
    const after = requests[lastSummaryIndex + 1]!;
    expect(after[0]!.role).toBe("system");
    expect(text(after[1])).toMatch(
      /^<conversation-summary>\nThe earlier part of this conversation was compressed into this summary:\n## Task Overview\nRivers\./,
    );
    expect(text(after.at(-1))).toMatch(/<current-time>.*<\/current-time>/s);
    expect(after.length).toBeLessThan(requests[summaryIndex - 1]!.length);

    // The person's visible history is intact and the compression is recorded where it happened.
    const { body } = await getJson<{
      messages: Array<{
        role: string;
        parts: Array<{ type: string; data?: { tokensBefore: number; tokensAfter: number; usage?: unknown } }>;
      }>;
    }>(`${env.server.url}/api/conversations/${id}`);
    expect(body.messages.filter((m) => m.role === "user")).toHaveLength(compressedAt + 1);
    const chip = body.messages.flatMap((m) => m.parts).find((p) => p.type === "data-compression");
    expect(chip?.data?.tokensBefore).toBeGreaterThanOrEqual(3600);
    expect(chip?.data?.tokensAfter).toBeLessThan(chip!.data!.tokensBefore);
    expect(chip?.data?.usage).toBeTruthy();
    // The agent's context figure is the new one: the newest <context-length> in the first call after the compression
    // is the compressed size, never a larger figure from before it kept in the tail.
    const figures = after.flatMap((m) =>
      [...text(m).matchAll(/Your current context contains (\d+) tokens/g)].map((f) => Number(f[1])),
    );
    expect(figures.length).toBeGreaterThan(0);
    expect(figures.at(-1)).toBeLessThanOrEqual(chip!.data!.tokensAfter);

    // The context endpoint shows exactly what the next call then receives (before its own new message and hint).
    const { body: context } = await getJson<{ messages: WireMessage[] }>(
      `${env.server.url}/api/conversations/${id}/context`,
    );
    env.fake.setDefault({ text: "short" });
    await chat(env.server.url, { conversationId: id, text: "last one" });
    const next = env.fake.requests.at(-1)!.body.messages as WireMessage[];
    expect(next.slice(1, 1 + context.messages.length).map(text)).toEqual(
      context.messages.map((m) =>
        typeof m.content === "string"
          ? m.content
          : text({ role: m.role, content: (m.content as Array<{ text?: string }>).map((p) => p.text ?? "").join("") }),
      ),
    );
  });

  it("compresses on demand and falls back to truncation when summarising fails", async () => {
    const id = `cmp-now-${Date.now()}`;
    env.fake.setDefault({ text: words(60, "x") });
    for (let i = 0; i < 3; i++) await chat(env.server.url, { conversationId: id, text: `msg ${i}` });
    env.fake.setDefault((req) =>
      text((req.body.messages as WireMessage[]).at(-1)).startsWith("Summarize")
        ? { kind: "http-error", status: 500 }
        : { text: "ok" },
    );
    const response = await fetch(`${env.server.url}/api/conversations/${id}/compact`, { method: "POST" });
    expect(response.status).toBe(200);
    const result = (await response.json()) as {
      compressed: boolean;
      compression: { fallback: boolean; summary: string };
    };
    expect(result.compressed).toBe(true);
    expect(result.compression.fallback).toBe(true);
    expect(result.compression.summary).toMatch(/Earlier messages were truncated/);
    expect((await fetch(`${env.server.url}/api/conversations/nope/compact`, { method: "POST" })).status).toBe(404);
  });
});

describe("meter figure", () => {
  it("is the local count of the next input, whatever the provider reports (tiny or absurd)", async () => {
    const id = `meter-${Date.now()}`;
    type Usage = { inputTokens: number; breakdown: Record<string, number> };
    const figure = async () => {
      const { body } = await getJson<{ contextUsage: Usage }>(`${env.server.url}/api/conversations/${id}`);
      const { body: context } = await getJson<{ usage: Usage }>(`${env.server.url}/api/conversations/${id}/context`);
      expect(context.usage.inputTokens).toBe(body.contextUsage.inputTokens);
      expect(Object.values(body.contextUsage.breakdown).reduce((a, b) => a + b, 0)).toBe(body.contextUsage.inputTokens);
      return body.contextUsage;
    };
    env.fake.enqueue({ text: words(150, "m"), usage: { promptTokens: 5, completionTokens: 1 } });
    await chat(env.server.url, { conversationId: id, text: "part 0" });
    const first = await figure();
    // The system prompt, the tool definitions and the 150-word reply are all in it.
    expect(first.inputTokens).toBeGreaterThan(first.breakdown.system! + first.breakdown.tools! + 150);
    env.fake.enqueue({ text: words(150, "n"), usage: { promptTokens: 1_000_000_000, completionTokens: 1_000_000 } });
    await chat(env.server.url, { conversationId: id, text: "part 1" });
    const second = await figure();
    expect(second.inputTokens).toBeGreaterThan(first.inputTokens + 150);
    expect(second.inputTokens).toBeLessThan(first.inputTokens * 3);
  });
});

describe("compression between the steps of a reply", () => {
  it("compresses before a later model call when the last step reached the trigger, keeping the reply so far", async () => {
    const id = `mid-${Date.now()}`;
    // Short enough that the first call, with the tool definitions, carries no context hint yet.
    env.fake.setDefault({ text: words(60, "p") });
    for (let i = 0; i < 2; i++) await chat(env.server.url, { conversationId: id, text: `warm up ${i}` });
    const before = env.fake.requests.length;
    env.fake.setDefault((req) =>
      text((req.body.messages as WireMessage[]).at(-1)).startsWith("Summarize")
        ? {
            text: "## Task Overview\nMid-reply summary.\n## Current State\n-\n## Important Discoveries\n-\n## Next Steps\n-\n## Context to Preserve\n-",
          }
        : { text: "finished" },
    );
    // The first step calls a tool and reports an input at the trigger (3600 of 4500).
    env.fake.enqueue({
      kind: "tools",
      calls: [{ id: "call_mid", name: "TaskList", arguments: {} }],
      usage: { promptTokens: 3700, completionTokens: 20 },
    });
    const { chunks, text: streamed } = await chat(env.server.url, { conversationId: id, text: "check the tasks" });
    expect(streamed).toBe("finished");
    const requests = env.fake.requests.slice(before).map((r) => r.body.messages as WireMessage[]);
    expect(requests.map((m) => text(m.at(-1)).slice(0, 9))).toEqual(["check the", "Summarize", expect.any(String)]);
    const afterCompression = requests[2]!;
    expect(afterCompression[0]!.role).toBe("system");
    expect(text(afterCompression[1])).toContain("Mid-reply summary.");
    // The reply so far (the tool call and its result) is still there, then a fresh time hint (the scan now sees
    // only the kept tail).
    expect(afterCompression.at(-2)!.role).toBe("tool");
    expect(text(afterCompression.at(-1))).toMatch(/^<system-reminder>[\s\S]*<current-time>/);
    expect(afterCompression.length).toBeLessThan(requests[0]!.length + 2);
    const types = chunks.map((c) => c.type);
    expect(types.indexOf("data-compression")).toBeGreaterThan(types.indexOf("tool-output-available"));
  });
});

const importConversation = async (body: unknown): Promise<string> => {
  const response = await fetch(`${env.server.url}/api/conversations/import`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ version: 1, conversation: body }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
};
const turns = (n: number, size: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${i}`,
    role: i % 2 ? "assistant" : "user",
    parts: [{ type: "text", text: `${i}: ${words(size, prefix)}` }],
  }));
const isSummaryRequest = (messages: WireMessage[]) =>
  text(messages.at(-1)).startsWith("Summarize the conversation below");

describe("requests that fit the window", () => {
  it("summarises an imported conversation far larger than the window in pieces, every request under the window", async () => {
    // About 30,000 tokens against a 4,500-token window.
    const id = await importConversation({ messages: turns(150, 90, "big") });
    env.fake.reset();
    let pieces = 0;
    env.fake.setDefault((req) =>
      isSummaryRequest(req.body.messages as WireMessage[])
        ? {
            text: `## Task Overview\nPiece ${++pieces}.\n## Current State\n-\n## Important Discoveries\n-\n## Next Steps\n-\n## Context to Preserve\n-`,
          }
        : { text: "ok" },
    );
    const { chunks } = await chat(env.server.url, { conversationId: id, text: "where were we?" });
    expect(chunks.some((c) => c.type === "data-compression")).toBe(true);
    const sizes = env.fake.requests.map(
      (r) =>
        countTokens(JSON.stringify(r.body.messages)) + (r.body.tools ? countTokens(JSON.stringify(r.body.tools)) : 0),
    );
    expect(Math.max(...sizes)).toBeLessThan(4500);
    const summaries = env.fake.requests.map((r) => r.body.messages as WireMessage[]).filter(isSummaryRequest);
    expect(summaries.length).toBeGreaterThan(5);
    // Each piece carries the running summary of the ones before it; the reply starts from the last one.
    expect(text(summaries[1]!.at(-1))).toContain("<previous-summary>\n## Task Overview\nPiece 1.");
    expect(text(env.fake.requests.at(-1)!.body.messages[1])).toContain(`Piece ${summaries.length}.`);
  });

  it("keeps the previous summary when summarising fails, with the truncation note appended", async () => {
    const id = `cmp-keep-${Date.now()}`;
    env.fake.setDefault((req) =>
      isSummaryRequest(req.body.messages as WireMessage[])
        ? {
            text: "## Task Overview\nRivers first.\n## Current State\n-\n## Important Discoveries\n-\n## Next Steps\n-\n## Context to Preserve\n-",
          }
        : { text: words(60, "k") },
    );
    for (let i = 0; i < 3; i++) await chat(env.server.url, { conversationId: id, text: `msg ${i}` });
    const compact = async () =>
      (await (await fetch(`${env.server.url}/api/conversations/${id}/compact`, { method: "POST" })).json()) as {
        compression: { fallback: boolean; summary: string };
      };
    expect((await compact()).compression.summary).toContain("Rivers first.");
    for (let i = 3; i < 6; i++) await chat(env.server.url, { conversationId: id, text: `msg ${i}` });
    env.fake.setDefault((req) =>
      isSummaryRequest(req.body.messages as WireMessage[]) ? { kind: "http-error", status: 500 } : { text: "ok" },
    );
    const failed = (await compact()).compression;
    expect(failed.fallback).toBe(true);
    expect(failed.summary).toMatch(
      /^## Task Overview\nRivers first\.[\s\S]*\n\nEarlier messages were truncated: \d+ older messages were dropped to fit the context window \(summarising them failed at [^)]+\)\.$/,
    );
  });

  it("counts the tool results of a step before the next call, and compresses when they reach the trigger", async () => {
    const tasks = Array.from({ length: 60 }, (_, i) => ({
      id: String(i + 1),
      subject: `Task ${i + 1}: ${words(12, "t")}`,
      status: "pending",
    }));
    const id = await importConversation({ messages: turns(8, 60, "tr"), tasks });
    env.fake.reset();
    env.fake.setDefault((req) =>
      isSummaryRequest(req.body.messages as WireMessage[])
        ? {
            text: "## Task Overview\nAfter the list.\n## Current State\n-\n## Important Discoveries\n-\n## Next Steps\n-\n## Context to Preserve\n-",
          }
        : { text: "done" },
    );
    // The first step reports 3,320 tokens (under the 3,600 trigger); its TaskList result adds well over 280.
    env.fake.enqueue({
      kind: "tools",
      calls: [{ id: "call_big", name: "TaskList", arguments: {} }],
      usage: { promptTokens: 3300, completionTokens: 20 },
    });
    const { chunks } = await chat(env.server.url, { conversationId: id, text: "list them" });
    expect(env.fake.requests.map((r) => isSummaryRequest(r.body.messages as WireMessage[]))).toEqual([
      false,
      true,
      false,
    ]);
    const compression = chunks.find((c) => c.type === "data-compression") as
      | { data: { tokensBefore: number } }
      | undefined;
    expect(compression?.data.tokensBefore).toBeGreaterThanOrEqual(3600);
  });
});

describe("no compression turn after turn on a 4,096 window", () => {
  type Usage = { inputTokens: number; breakdown: Record<string, number> };
  type StuckPart = { type: string; data?: { stuck?: { contextWindow: number; breakdown: Record<string, number> } } };
  const summaryText =
    "## Task Overview\nRivers.\n## Current State\nWriting.\n## Important Discoveries\nNone.\n## Next Steps\nGo on.\n## Context to Preserve\nNone.";
  const patchSettings = async (id: string, settings: unknown) => {
    const response = await fetch(`${env.server.url}/api/conversations/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ settings }),
    });
    expect(response.status).toBe(200);
  };
  const usageOf = async (id: string) =>
    (await getJson<{ contextUsage: Usage }>(`${env.server.url}/api/conversations/${id}`)).body.contextUsage;

  /**
   * A conversation on a 4,096 window whose fixed part (system prompt and tool definitions) takes `fixed` tokens: a
   * base prompt makes up what the tools and the rest of the prompt leave, measured and topped up, as the tools and
   * sections chosen for the window change with the base prompt's size (lib/chat/fixed-part.ts).
   */
  async function conversationWithFixedPart(prefix: string, fixed: number): Promise<string> {
    const id = `${prefix}-${Date.now()}`;
    env.fake.setDefault({ text: "hi" });
    await chat(env.server.url, { conversationId: id, text: "hello" });
    await patchSettings(id, { context: { contextWindow: 4096 }, prompt: { base: "Be brief." } });
    let count = 0;
    for (let round = 0; round < 4; round++) {
      const now = (await usageOf(id)).breakdown;
      const missing = fixed - now.system! - now.tools!;
      if (Math.abs(missing) <= 20) break;
      count = Math.max(0, count + Math.round(missing / 3));
      await patchSettings(id, { prompt: { base: `Be brief. ${words(count, "b")}` } });
    }
    const { breakdown } = await usageOf(id);
    expect(breakdown.system! + breakdown.tools!).toBeGreaterThan(fixed - 60);
    expect(breakdown.system! + breakdown.tools!).toBeLessThan(fixed + 60);
    return id;
  }

  /** Turns of 120-word replies: the turns (0-based) that compressed, and the compression parts stored. */
  async function turns(id: string, count: number) {
    env.fake.setDefault((req) =>
      isSummaryRequest(req.body.messages as WireMessage[]) ? { text: summaryText } : { text: words(60, "r") },
    );
    const compressedAt: number[] = [];
    for (let turn = 0; turn < count; turn++) {
      const { chunks } = await chat(env.server.url, { conversationId: id, text: `turn ${turn}: 120 words please` });
      if (chunks.some((c) => c.type === "data-compression")) compressedAt.push(turn);
    }
    const { body } = await getJson<{ messages: Array<{ parts: StuckPart[] }> }>(
      `${env.server.url}/api/conversations/${id}`,
    );
    const parts = body.messages.flatMap((m) => m.parts).filter((p) => p.type === "data-compression");
    return { compressedAt, parts };
  }
  const consecutive = (turnsCompressed: number[]) =>
    turnsCompressed.some((t, i) => i > 0 && t === turnsCompressed[i - 1]! + 1);

  it("with a fixed part of 72 %, 8 turns of 120-word replies compress at most 3 times, never on two turns in a row", async () => {
    const id = await conversationWithFixedPart("hold", 2950);
    const { compressedAt, parts } = await turns(id, 8);
    expect(compressedAt.length).toBeGreaterThan(0);
    expect(compressedAt.length).toBeLessThanOrEqual(3);
    expect(consecutive(compressedAt)).toBe(false);
    expect(parts).toHaveLength(compressedAt.length);
  });

  it("tells the person once what fills the window when a compression cannot get under the trigger", async () => {
    // 3,250 fixed: with the summary and the newest message the context stays over the trigger (3,276) after
    // compressing, however few messages it keeps.
    const id = await conversationWithFixedPart("stuck", 3250);
    const { compressedAt, parts } = await turns(id, 7);
    expect(compressedAt.length).toBeGreaterThan(1);
    expect(consecutive(compressedAt)).toBe(false);
    const told = parts.filter((p) => p.data?.stuck);
    expect(told).toHaveLength(1);
    expect(told[0]).toBe(parts[0]);
    const stuck = told[0]!.data!.stuck!;
    expect(stuck.contextWindow).toBe(4096);
    expect(stuck.breakdown.system! + stuck.breakdown.tools!).toBeGreaterThan(3190);
    // Another window is another size to tell about: the next stuck compression there says so again.
    await patchSettings(id, { context: { contextWindow: 4000 } });
    const after = await turns(id, 3);
    expect(after.parts.filter((p) => p.data?.stuck?.contextWindow === 4000)).toHaveLength(1);
  });
});
