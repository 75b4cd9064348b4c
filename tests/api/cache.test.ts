// Cache accounting through the real server and the OpenAI fake (which reports cached tokens as OpenAI does): every
// model call's figures in its reply's metadata.usage, the cache figures of GET …/context, and the cache-break
// detector over a long conversation with tools, the person's task edits, settings changes, a prompt edit and a
// compression — where the only breaks are the expected ones, checked independently against the requests sent.
import { describe, expect, it } from "vitest";
import { providerServerForFile } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import { cachedPrefixTokens, type FakeReply, type RecordedRequest } from "../support/openai-fake.ts";
import { type ApiMessage, jsonRequest } from "./helpers.ts";

const env = providerServerForFile({ HINTLINE_CONTEXT_WINDOW: "16000" });
const CACHE_MIN_TOKENS = 256;

type WireMessage = { role: string; content: unknown };
type Usage = { inputTokens?: number; cachedInputTokens?: number; cacheWriteTokens?: number; outputTokens?: number };
type Break = { call: number; firstChangedMessage: number | null; changed: string; cause: string; at: string };
type Cache = {
  lastCall: { inputTokens: number; cachedInputTokens: number } | null;
  conversation: { inputTokens: number; cachedInputTokens: number };
  breaks: Break[];
  calls: Array<{
    call: number;
    inputTokens: number | null;
    cachedInputTokens: number | null;
    outputTokens: number | null;
    cost: number | null;
  }>;
};

const isSummary = (r: RecordedRequest) => {
  const last = (r.body.messages as WireMessage[]).at(-1);
  return typeof last?.content === "string" && last.content.startsWith("Summarize the conversation below");
};
const prose = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${(i * 7) % 13}`).join(" ");
const SUMMARY =
  "## Task Overview\nMoving house.\n## Current State\nTasks made.\n## Important Discoveries\n-\n## Next Steps\n-\n## Context to Preserve\n-";

describe("cache accounting", () => {
  it("records every call's figures and finds exactly the expected cache breaks over a long conversation", async () => {
    env.fake.reset();
    env.fake.setCacheMinTokens(CACHE_MIN_TOKENS);
    const id = `cache-${Date.now()}`;
    const url = env.server.url;
    const patch = (body: unknown) => fetch(`${url}/api/conversations/${id}`, jsonRequest("PATCH", body));
    const tool = (name: string, args: unknown): FakeReply => ({ kind: "tools", calls: [{ name, arguments: args }] });
    const turn = async (text: string, ...replies: FakeReply[]) => {
      env.fake.enqueue(...replies, { text: `${prose(90, text.slice(0, 3))}.` });
      const { response } = await chat(url, { conversationId: id, text, timezone: "Europe/Berlin" });
      expect(response.status).toBe(200);
    };
    const callsSoFar = () => env.fake.requests.filter((r) => !isSummary(r)).length;

    await turn(
      "Plan the move: pack, drive, unpack",
      tool("TaskCreate", { subject: "Pack", description: "boxes" }),
      tool("TaskCreate", { subject: "Drive", description: "van" }),
      tool("TaskCreate", { subject: "Unpack", description: "boxes" }),
    );
    await turn("start packing", tool("TaskUpdate", { task_id: "1", status: "in_progress" }));
    // The person edits tasks in the panel: the agent hears of it (a hint) on its next step.
    expect(
      (await fetch(`${url}/api/conversations/${id}/tasks/2`, jsonRequest("PATCH", { subject: "Drive the van" })))
        .status,
    ).toBe(200);
    expect(
      (await fetch(`${url}/api/conversations/${id}/tasks`, jsonRequest("POST", { subject: "Return the keys" }))).status,
    ).toBe(201);
    await turn("what is left?", tool("TaskList", {}));
    // A settings change that does not touch the system prompt.
    expect((await patch({ settings: { injection: { timeInterval: 0.0005 } } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_000)); // a fresh time hint on the next turn
    await turn("packing is done", tool("TaskUpdate", { task_id: "1", status: "completed" }), tool("TaskList", {}));
    await turn("how far are we?");
    // The person edits the prompt: the next call's system prompt changes (an expected break).
    expect((await patch({ settings: { prompt: { instructions: "Answer briefly." } } })).status).toBe(200);
    const promptEditCall = callsSoFar() + 1;
    await turn("drive now", tool("TaskUpdate", { task_id: "2", status: "in_progress" }));
    await turn("anything else?", tool("TaskList", {}));
    // Compress now: the next call starts from the summary (an expected break).
    env.fake.enqueue({ text: SUMMARY });
    const compact = await getJson<{ compressed: boolean }>(`${url}/api/conversations/${id}/compact`, {
      method: "POST",
    });
    expect(compact.body.compressed).toBe(true);
    const compressionCall = callsSoFar() + 1;
    await turn("we arrived", tool("TaskUpdate", { task_id: "2", status: "completed" }));
    expect(
      (await fetch(`${url}/api/conversations/${id}/tasks/3`, jsonRequest("PATCH", { status: "in_progress" }))).status,
    ).toBe(200);
    await turn("unpacking", tool("TaskList", {}));
    await turn("done for today");

    const requests = env.fake.requests.filter((r) => !isSummary(r));
    const { body: context } = await getJson<{ cache: Cache }>(`${url}/api/conversations/${id}/context`);
    const { cache } = context;

    // The detector's breaks: exactly the prompt edit and the compression.
    expect(cache.breaks.map(({ at: _at, ...b }) => b)).toEqual([
      { call: promptEditCall, firstChangedMessage: null, changed: "system", cause: "prompt-edit" },
      { call: compressionCall, firstChangedMessage: 0, changed: "messages", cause: "compression" },
    ]);

    // Independently, from what the fake received: every other request extends the previous one byte for byte.
    const system = (r: RecordedRequest) => JSON.stringify((r.body.messages as WireMessage[])[0]);
    const rest = (r: RecordedRequest) => (r.body.messages as WireMessage[]).slice(1).map((m) => JSON.stringify(m));
    const seen: number[] = [];
    for (let i = 1; i < requests.length; i++) {
      const [before, after] = [requests[i - 1]!, requests[i]!];
      const extends_ =
        system(before) === system(after) &&
        JSON.stringify(after.body.tools) === JSON.stringify(before.body.tools) &&
        rest(before).every((m, j) => rest(after)[j] === m);
      if (!extends_) seen.push(i + 1);
    }
    expect(seen).toEqual([promptEditCall, compressionCall]);
    expect(system(requests[promptEditCall - 1]!)).toContain("Answer briefly.");

    // The tools did what the turns say: every call accepted (none came back as an error the model would read), and
    // the task list ends as the agent's updates and the person's edits left it.
    const { body: view } = await getJson<{ messages: ApiMessage[] }>(`${url}/api/conversations/${id}`);
    const toolParts = view.messages.flatMap((m) => m.parts.filter((p) => p.type.startsWith("tool-")));
    expect(toolParts.map((p) => p.type)).toEqual([
      "tool-TaskCreate",
      "tool-TaskCreate",
      "tool-TaskCreate",
      "tool-TaskUpdate",
      "tool-TaskList",
      "tool-TaskUpdate",
      "tool-TaskList",
      "tool-TaskUpdate",
      "tool-TaskList",
      "tool-TaskUpdate",
      "tool-TaskList",
    ]);
    expect(toolParts.filter((p) => p.state !== "output-available").map((p) => `${p.type}: ${p.errorText}`)).toEqual([]);
    const { body: tasks } = await getJson<Array<{ id: string; subject: string; status: string }>>(
      `${url}/api/conversations/${id}/tasks`,
    );
    expect(tasks.map(({ id, subject, status }) => ({ id, subject, status }))).toEqual([
      { id: "1", subject: "Pack", status: "completed" },
      { id: "2", subject: "Drive the van", status: "completed" },
      { id: "3", subject: "Unpack", status: "in_progress" },
      { id: "4", subject: "Return the keys", status: "pending" },
    ]);

    // metadata.usage: one entry per model call, in order, with the figures the fake reported.
    const usage = view.messages.flatMap((m) =>
      m.role === "assistant" ? ((m.metadata?.usage as Usage[] | undefined) ?? []) : [],
    );
    expect(usage).toHaveLength(requests.length);
    const served = env.fake.requests;
    const expectedCached = served
      .map((r, i) => cachedPrefixTokens(r.body, served[i - 1]?.body, CACHE_MIN_TOKENS))
      .filter((_, i) => !isSummary(served[i]!));
    expect(usage.map((u) => u.cachedInputTokens)).toEqual(expectedCached);
    expect(usage.map((u) => u.inputTokens)).toEqual(
      requests.map((r) => Math.ceil(JSON.stringify(r.body.messages).length / 4)),
    );
    expect(usage.every((u) => typeof u.outputTokens === "number" && u.outputTokens > 0)).toBe(true);

    // GET …/context: the last call, the conversation's sums and the call list agree with metadata.usage.
    const sum = (pick: (u: Usage) => number | undefined) => usage.reduce((s, u) => s + (pick(u) ?? 0), 0);
    expect(cache.lastCall).toEqual({
      inputTokens: usage.at(-1)!.inputTokens,
      cachedInputTokens: usage.at(-1)!.cachedInputTokens,
    });
    expect(cache.conversation).toEqual({
      inputTokens: sum((u) => u.inputTokens),
      cachedInputTokens: sum((u) => u.cachedInputTokens),
    });
    expect(cache.calls.map((c) => c.call)).toEqual(usage.map((_, i) => i + 1));
    expect(cache.calls.every((c) => c.cost === null)).toBe(true); // fake-model has no price
    const rate = (t: { inputTokens: number; cachedInputTokens: number }) =>
      Math.round((100 * t.cachedInputTokens) / t.inputTokens);
    console.log(
      `cache: ${requests.length} calls, conversation ${rate(cache.conversation)} % cached, last call ${rate(cache.lastCall!)} %, ` +
        `after the prompt edit ${rate({ inputTokens: usage[promptEditCall - 1]!.inputTokens!, cachedInputTokens: usage[promptEditCall - 1]!.cachedInputTokens! })} %`,
    );
    expect(rate(cache.conversation)).toBeGreaterThan(50);
    // The meter's figure carries the same cache figures.
    const { body: conversation } = await getJson<{ contextUsage: { cache: Omit<Cache, "breaks" | "calls"> } }>(
      `${url}/api/conversations/${id}`,
    );
    expect(conversation.contextUsage.cache).toEqual({ lastCall: cache.lastCall, conversation: cache.conversation });
  });

  it("records an implausible report as a call without figures", async () => {
    env.fake.reset();
    const id = `cache-lies-${Date.now()}`;
    env.fake.enqueue(
      { text: "one", usage: { promptTokens: 500, completionTokens: 5, cachedTokens: 900 } },
      { text: "two", usage: { promptTokens: 10_000_000, completionTokens: 5 } },
    );
    await chat(env.server.url, { conversationId: id, text: "hi" });
    await chat(env.server.url, { conversationId: id, text: "again" });
    env.fake.enqueue({ text: "three", usage: { promptTokens: 600, completionTokens: 7, cachedTokens: 512 } });
    await chat(env.server.url, { conversationId: id, text: "once more" });
    const { body } = await getJson<{ cache: Cache }>(`${env.server.url}/api/conversations/${id}/context`);
    expect(
      body.cache.calls.map(({ inputTokens, cachedInputTokens, outputTokens }) => ({
        inputTokens,
        cachedInputTokens,
        outputTokens,
      })),
    ).toEqual([
      { inputTokens: null, cachedInputTokens: null, outputTokens: null },
      { inputTokens: null, cachedInputTokens: null, outputTokens: null },
      { inputTokens: 600, cachedInputTokens: 512, outputTokens: 7 },
    ]);
    expect(body.cache.conversation).toEqual({ inputTokens: 600, cachedInputTokens: 512 });
    expect(body.cache.breaks).toEqual([]);
  });

  it("records the cache writes OpenAI reports (cache_write_tokens) beside the reads", async () => {
    env.fake.reset();
    const id = `cache-writes-${Date.now()}`;
    env.fake.enqueue(
      { text: "one", usage: { promptTokens: 2000, completionTokens: 5, cachedTokens: 0, cacheWriteTokens: 1792 } },
      { text: "two", usage: { promptTokens: 2100, completionTokens: 5, cachedTokens: 1792, cacheWriteTokens: 256 } },
    );
    await chat(env.server.url, { conversationId: id, text: "hi" });
    await chat(env.server.url, { conversationId: id, text: "again" });
    const { body: view } = await getJson<{ messages: ApiMessage[] }>(`${env.server.url}/api/conversations/${id}`);
    const usage = view.messages.flatMap((m) => (m.role === "assistant" ? (m.metadata?.usage as Usage[]) : []));
    expect(usage).toEqual([
      { inputTokens: 2000, cachedInputTokens: 0, cacheWriteTokens: 1792, outputTokens: 5 },
      { inputTokens: 2100, cachedInputTokens: 1792, cacheWriteTokens: 256, outputTokens: 5 },
    ]);
    const { body } = await getJson<{ cache: { calls: Array<{ cacheWriteTokens?: number }> } }>(
      `${env.server.url}/api/conversations/${id}/context`,
    );
    expect(body.cache.calls.map((c) => c.cacheWriteTokens)).toEqual([1792, 256]);
  });

  it("a conversation deleted and created again under the same id starts without a break against the old one", async () => {
    env.fake.reset();
    const id = `cache-reuse-${Date.now()}`;
    const url = env.server.url;
    for (const text of ["first life", "still the first"]) {
      env.fake.enqueue({ text: `${prose(40, "old")}.` });
      expect((await chat(url, { conversationId: id, text })).response.status).toBe(200);
    }
    expect((await fetch(`${url}/api/conversations/${id}`, { method: "DELETE" })).status).toBe(204);
    env.fake.enqueue({ text: "new." });
    expect((await chat(url, { conversationId: id, text: "a second life" })).response.status).toBe(200);
    const { body } = await getJson<{ cache: Cache }>(`${url}/api/conversations/${id}/context`);
    expect(body.cache.breaks).toEqual([]);
  });
});
