// A long conversation is read and sent in slices, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: while one client
// opens a conversation of thousands of messages, another client's cheap requests are answered, and the answer is the
// whole conversation, in order, as JSON. Not a timing assertion, and a guard more than a proof: before, requests got
// through too, in the gaps between the view's queries (2–3 on SQLite, 6 on PostgreSQL; 6 and 44 after). What slices
// the work is held to it in tests/db/message-pages.test.ts, lib/chat/history-fold.test.ts and
// lib/http/json-slices.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { type ApiMessage, databaseKinds, jsonRequest } from "./helpers.ts";

const SIZE = 6_000;

describe.each(databaseKinds("long_conversations"))("$name: a long conversation", ({ databaseUrl }) => {
  let server: AppServer;
  const api = (path: string) => `${server.url}/api${path}`;

  beforeAll(async () => {
    server = await startAppServer({ databaseUrl: await databaseUrl() });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Sends `request` and, one after another until its answer has been read whole, cheap requests; how many of them were answered meanwhile. */
  async function answeredDuring<T>(request: () => Promise<T>): Promise<{ result: T; answered: number }> {
    let done = false;
    const running = request().finally(() => {
      done = true;
    });
    let answered = 0;
    while (!done) {
      const response = await fetch(api("/model"));
      await response.arrayBuffer();
      if (!done && response.status === 200) answered++;
    }
    return { result: await running, answered };
  }

  it("answers other requests while a conversation of thousands of messages is opened", {
    timeout: 180_000,
  }, async () => {
    const id = `long-${Date.now().toString(36)}`;
    const messages = Array.from({ length: SIZE }, (_, i) => ({
      id: `m${i}`,
      role: i % 2 ? "assistant" : "user",
      parts: [{ type: "text", text: `message ${i} of a long conversation` }],
    }));
    expect(
      (await fetch(api("/conversations/import"), jsonRequest("POST", { version: 1, conversation: { id, messages } })))
        .status,
    ).toBe(201);
    // Once so that the server has loaded the route's code and counted the messages.
    expect((await fetch(api(`/conversations/${id}`))).status).toBe(200);

    const { result, answered } = await answeredDuring(async () => {
      const response = await fetch(api(`/conversations/${id}`));
      return {
        status: response.status,
        type: response.headers.get("content-type"),
        body: (await response.json()) as { messages: ApiMessage[] },
      };
    });
    expect(result.status).toBe(200);
    expect(result.type).toMatch(/^application\/json/);
    expect(result.body.messages.map((m) => m.id)).toEqual(messages.map((m) => m.id));
    expect(answered).toBeGreaterThanOrEqual(2);
    // Sent in slices, the messages are the ones the export (serialised in one go) holds, member for member.
    const exported = (await (await fetch(api(`/conversations/${id}/export`))).json()) as {
      conversation: { messages: ApiMessage[] };
    };
    expect(result.body.messages).toEqual(exported.conversation.messages);
  });
});
