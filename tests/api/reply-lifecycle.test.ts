// A live reply against the requests that would take its conversation away, on SQLite and (with TEST_POSTGRES_URL)
// PostgreSQL: an edit refused with 409 archives nothing; DELETE mid-reply stops the reply before the conversation
// goes, so nothing of it is written afterwards; and the same message sent again then starts a fresh conversation
// (it used to get a 409 that still created an empty conversation, which the old reply went on to title).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { chunkReader, getJson, postChat, readChunks, stopReply, streamedText } from "../support/chat-client.ts";
import { type OpenAIFake, startOpenAIFake } from "../support/openai-fake.ts";
import {
  type ApiMessage,
  type ConversationSummary,
  databaseKinds,
  expectApiError,
  jsonRequest,
  messageText,
  userMessage,
} from "./helpers.ts";

type View = { title: string; messages: ApiMessage[]; branches: unknown[] };
const longText = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

describe.each(databaseKinds("lifecycle"))(
  "$name: a live reply and the requests that take its conversation away",
  ({ databaseUrl }) => {
    let fake: OpenAIFake;
    let server: AppServer;
    const api = (path: string) => `${server.url}/api${path}`;
    const view = async (id: string) => getJson<View>(api(`/conversations/${id}`));
    const list = async () =>
      (await getJson<ConversationSummary[] | { conversations: ConversationSummary[] }>(api("/conversations"))).body;
    const listed = async (id: string) => {
      const body = await list();
      return (Array.isArray(body) ? body : body.conversations).some((c) => c.id === id);
    };
    const edit = (id: string, messageId: string, editOf: string, text: string) =>
      fetch(api("/chat"), jsonRequest("POST", { id, message: userMessage(messageId, text), editOf }));

    beforeAll(async () => {
      fake = await startOpenAIFake();
      server = await startAppServer({ env: providerEnv(fake.url), databaseUrl: await databaseUrl() });
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await fake?.close();
    });

    it("refuses an edit with 409 and archives nothing: a reused message id, and a reply still being written", async () => {
      const id = `edit-409-${Date.now().toString(36)}`;
      fake.enqueue({ text: "r1" }, { text: "r2" });
      await readChunks(await postChat(server.url, { conversationId: id, messageId: "u1", text: "one" }));
      await readChunks(await postChat(server.url, { conversationId: id, messageId: "u2", text: "two" }));
      const before = (await view(id)).body;
      expect(before.messages.map(messageText)).toEqual(["one", "r1", "two", "r2"]);

      // The edited message's turn could not be opened (u1 is an earlier message's id): nothing is archived.
      const refused = await expectApiError(await edit(id, "u1", "u2", "TWO"), 409, "conflict");
      expect((await view(id)).body).toEqual(before);
      expect(refused).toMatch(/u1 is already used by an earlier message/);

      // A reply is being written: the edit is refused and the branch stays where it was.
      fake.enqueue({ text: longText(300), chunkDelayMs: 10 });
      const live = chunkReader(await postChat(server.url, { conversationId: id, messageId: "u3", text: "three" }));
      await live.until((c) => c.type === "text-delta");
      await expectApiError(await edit(id, "u2b", "u2", "TWO"), 409, "conflict");
      expect((await stopReply(server.url, id)).status).toBe(200);
      await live.rest();
      const after = (await view(id)).body;
      expect(after.messages.map((m) => m.id).slice(0, 5)).toEqual([
        "u1",
        before.messages[1]!.id,
        "u2",
        before.messages[3]!.id,
        "u3",
      ]);
      expect(after.branches).toEqual([]);
    });

    it("stops the reply when its conversation is deleted mid-reply; nothing of it is written afterwards", async () => {
      const id = `del-live-${Date.now().toString(36)}`;
      fake.enqueue({ text: longText(500), chunkDelayMs: 20 });
      const reader = chunkReader(
        await postChat(server.url, { conversationId: id, messageId: "d1", text: "write a lot" }),
      );
      await reader.until((c) => c.type === "text-delta");
      expect((await fetch(api(`/conversations/${id}`), { method: "DELETE" })).status).toBe(204);
      // The reply ended as stopped, not as a complete reply written into a conversation that is gone.
      const chunks = await reader.rest();
      expect(chunks.find((c) => c.type === "message-metadata")?.messageMetadata).toMatchObject({
        status: "incomplete",
      });
      expect(streamedText(chunks).split(" ").length).toBeLessThan(500);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await expectApiError(await fetch(api(`/conversations/${id}`)), 404, "not_found");
      expect(await listed(id)).toBe(false);
      await expectApiError(await stopReply(server.url, id), 404, "not_found");
      expect((await fetch(api(`/conversations/${id}/stream`))).status).toBe(404);
    });

    it("starts afresh when the deleted conversation's message is sent again: no 409, no empty conversation, no old reply in it", async () => {
      const id = `resend-${Date.now().toString(36)}`;
      fake.enqueue({ text: longText(400), chunkDelayMs: 20 });
      const old = chunkReader(
        await postChat(server.url, { conversationId: id, messageId: "same", text: "hello there" }),
      );
      await old.until((c) => c.type === "text-delta");
      expect((await fetch(api(`/conversations/${id}`), { method: "DELETE" })).status).toBe(204);
      fake.enqueue({ text: "a fresh answer" });
      const again = await postChat(server.url, { conversationId: id, messageId: "same", text: "hello there" });
      expect(again.status).toBe(200);
      expect(streamedText(await readChunks(again))).toBe("a fresh answer");
      await old.rest();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { body } = await view(id);
      expect(body.messages.map((m) => [m.id, messageText(m), m.metadata?.status])).toEqual([
        ["same", "hello there", undefined],
        [expect.any(String), "a fresh answer", undefined],
      ]);
      expect(body.title).toBe("hello there");
    });
  },
);
