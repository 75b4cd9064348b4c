// Many conversations streaming at once through one server, on SQLite and (when TEST_POSTGRES_URL is set, as in
// `npm test`) on PostgreSQL: every reply lands in its own conversation, every message is stored exactly once, and
// task ids stay sequential per conversation while the model's parallel TaskCreate calls race.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import { type FakeReply, type OpenAIFake, type RecordedRequest, startOpenAIFake } from "../support/openai-fake.ts";
import { type ConversationView, databaseKinds, messageText } from "./helpers.ts";

const CONVERSATIONS = 24;
const TURNS = 3;
const TASKS_PER_TURN = 3;

type WireMessage = { role: string; content: unknown };
const wireText = (m: WireMessage | undefined) =>
  typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");

const isPerson = (m: WireMessage) => m.role === "user" && !wireText(m).startsWith("<system-reminder>");

/**
 * Turn 1 of every conversation makes three TaskCreate calls in one step (executed concurrently by the server);
 * every other call answers with text naming the conversation and turn it was asked in.
 */
function scriptedReply(request: RecordedRequest): FakeReply {
  const messages = (request.body?.messages ?? []) as WireMessage[];
  const last = messages.findLastIndex(isPerson);
  const tag = /conv-\d+ turn \d+/.exec(wireText(messages[last]))?.[0] ?? "untagged";
  // Tool results after the person's message (a tasks hint may follow them): the calls were made, now answer.
  if (messages.slice(last).some((m) => m.role === "tool")) return { text: `created tasks for ${tag}`, chunkDelayMs: 2 };
  if (tag.endsWith("turn 1")) {
    const calls = Array.from({ length: TASKS_PER_TURN }, (_, i) => ({
      name: "TaskCreate",
      arguments: { subject: `${tag} task ${i}`, description: "d" },
    }));
    return { kind: "tools", calls, chunkDelayMs: 2 };
  }
  return { text: `answer to ${tag}: ${"lorem ipsum dolor ".repeat(20)}`.trim(), chunkDelayMs: 2 };
}

const kinds = databaseKinds("concurrency");

describe.each(kinds)("$name: 24 conversations streaming at once", ({ databaseUrl }) => {
  let fake: OpenAIFake;
  let server: AppServer;
  beforeAll(async () => {
    fake = await startOpenAIFake();
    fake.setDefault(scriptedReply);
    server = await startAppServer({ env: providerEnv(fake.url), databaseUrl: await databaseUrl() });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("keeps every reply in its own conversation, stores each message once, and numbers tasks 1..n per conversation", async () => {
    const ids = Array.from({ length: CONVERSATIONS }, (_, i) => `conv-${String(i).padStart(2, "0")}`);
    const streamed = new Map<string, string[]>();
    await Promise.all(
      ids.map(async (id) => {
        for (let turn = 1; turn <= TURNS; turn++) {
          const { response, text } = await chat(server.url, {
            conversationId: id,
            messageId: `${id}-u${turn}`,
            text: `${id} turn ${turn}`,
          });
          expect(response.status).toBe(200);
          streamed.set(id, [...(streamed.get(id) ?? []), text]);
        }
      }),
    );

    for (const id of ids) {
      expect(streamed.get(id)?.[0]).toBe(`created tasks for ${id} turn 1`);
      expect(streamed.get(id)?.[1]).toMatch(new RegExp(`^answer to ${id} turn 2: `));
      const { status, body } = await getJson<ConversationView & { tasks: Array<{ id: string; subject: string }> }>(
        `${server.url}/api/conversations/${id}`,
      );
      expect(status).toBe(200);
      expect(body.messages.map((m) => m.role)).toEqual(
        Array.from({ length: TURNS }, () => ["user", "assistant"]).flat(),
      );
      expect(new Set(body.messages.map((m) => m.id)).size).toBe(TURNS * 2);
      expect(body.messages.filter((m) => m.role === "user").map((m) => messageText(m))).toEqual(
        [1, 2, 3].map((t) => `${id} turn ${t}`),
      );
      const replies = body.messages.filter((m) => m.role === "assistant");
      expect(replies.map((m) => m.metadata?.status ?? "complete")).toEqual(["complete", "complete", "complete"]);
      expect(replies.map((m) => messageText(m))).toEqual(streamed.get(id));
      expect(body.tasks.map((t) => t.id).sort()).toEqual(["1", "2", "3"]);
      expect(body.tasks.every((t) => t.subject.startsWith(`${id} turn 1 task `))).toBe(true);
      expect(new Set(body.tasks.map((t) => t.subject)).size).toBe(TASKS_PER_TURN);
    }
    // Turn 1 is two model calls (tools, then text); turns 2 and 3 one each.
    expect(fake.requests).toHaveLength(CONVERSATIONS * (TURNS + 1));
  }, 120_000);
});
