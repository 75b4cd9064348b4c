// POST /api/chat against the built-in demo model: streaming, persistence, retries, stopping and concurrency.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, getJson, postChat, stopReply } from "../support/chat-client.ts";
import {
  type ConversationSummary,
  type ConversationView,
  chunkSequence,
  expectApiError,
  messageText,
  pollUntil,
  readUntil,
  words,
} from "./helpers.ts";

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});

afterAll(async () => {
  await server?.stop();
});

async function view(id: string): Promise<ConversationView> {
  const { status, body } = await getJson<ConversationView>(`${server.url}/api/conversations/${id}`);
  expect(status).toBe(200);
  return body;
}

/** Starts a long reply and returns once its first words have arrived. */
async function startLongReply(conversationId: string, messageId: string) {
  const controller = new AbortController();
  const response = await postChat(server.url, {
    conversationId,
    messageId,
    text: "write 2000 words about rivers",
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const chunks = await readUntil(response, (c) => c.type === "text-delta");
  expect(chunks.at(-1)?.type).toBe("text-delta");
  const replyId = chunks.find((c) => c.type === "start")?.messageId as string;
  const streamed = chunks
    .filter((c) => c.type === "text-delta")
    .map((c) => c.delta as string)
    .join("");
  return { controller, replyId, streamed };
}

const settled = (conversation: ConversationView) =>
  conversation.messages.length >= 2 && conversation.messages[1]?.metadata?.status !== "streaming";

describe("chat with the demo model", () => {
  const prompt = "write 20 words about rivers";
  let firstReply = { id: "", text: "" };

  it("streams a reply, stores both messages and titles the conversation", async () => {
    const older = await chat(server.url, { conversationId: "older-chat", text: "hello" });
    expect(older.response.status).toBe(200);

    const { response, chunks, text } = await chat(server.url, {
      conversationId: "rivers",
      messageId: "u1",
      text: prompt,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(chunks[0]?.type).toBe("start");
    const replyId = chunks[0]?.messageId;
    expect(replyId).toEqual(expect.any(String));
    const metadata = chunks.find((c) => c.type === "message-metadata")?.messageMetadata as { status?: string };
    expect(metadata?.status).toBe("complete");
    expect(chunks.some((c) => c.type === "error")).toBe(false);
    expect(words(text)).toHaveLength(20);

    const conversation = await view("rivers");
    // After the first exchange the demo model's rule names it from the first message's key words.
    expect(conversation.title).toBe("Write 20 words about rivers");
    expect(conversation.messages.map((m) => [m.id, m.role])).toEqual([
      ["u1", "user"],
      [replyId, "assistant"],
    ]);
    expect(messageText(conversation.messages[0])).toBe(prompt);
    expect(messageText(conversation.messages[1])).toBe(text);
    for (const message of conversation.messages) expect(message.metadata?.status).toBeUndefined();

    const list = await getJson<ConversationSummary[]>(`${server.url}/api/conversations`);
    expect(list.status).toBe(200);
    expect(list.body.map((c) => c.id)).toEqual(["rivers", "older-chat"]);
    expect(list.body[0]).toMatchObject({ id: "rivers", title: "Write 20 words about rivers" });
    firstReply = { id: replyId as string, text };
  });

  it("follows the UI message stream protocol, ending with a finish chunk", async () => {
    const { chunks } = await chat(server.url, { conversationId: "protocol", text: "write 5 words about lakes" });
    expect(chunkSequence(chunks)).toEqual([
      "start",
      "start-step",
      "text-start",
      "text-delta",
      "text-end",
      "finish-step",
      "message-metadata",
      "finish",
    ]);
  });

  it("continues the conversation with a second turn", async () => {
    const { response, text } = await chat(server.url, {
      conversationId: "rivers",
      messageId: "u2",
      text: "write 7 words about lakes",
    });
    expect(response.status).toBe(200);
    expect(words(text)).toHaveLength(7);

    const conversation = await view("rivers");
    expect(conversation.title).toBe("Write 20 words about rivers");
    expect(conversation.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(conversation.messages.map((m) => m.id).slice(0, 3)).toEqual(["u1", firstReply.id, "u2"]);
    expect(messageText(conversation.messages[1])).toBe(firstReply.text);
    expect(messageText(conversation.messages[3])).toBe(text);
  });

  it("replaces the reply when the same user message is sent again", async () => {
    const before = await view("rivers");
    const oldReply = before.messages[3]!;

    const { response, chunks, text } = await chat(server.url, {
      conversationId: "rivers",
      messageId: "u2",
      text: "write 7 words about lakes",
    });
    expect(response.status).toBe(200);
    const newReplyId = chunks.find((c) => c.type === "start")?.messageId;
    expect(newReplyId).not.toBe(oldReply.id);
    expect(words(text)).toHaveLength(7);

    const after = await view("rivers");
    expect(after.messages.map((m) => m.id)).toEqual(["u1", firstReply.id, "u2", newReplyId]);
    expect(after.messages.filter((m) => m.id === "u2")).toHaveLength(1);
    expect(messageText(after.messages[3])).toBe(text);
  });

  it("keeps the person's message and the partial reply when Stop is pressed", async () => {
    const { controller, replyId, streamed } = await startLongReply("stopped", "s1");
    controller.abort(); // the browser's own request ends too, as the Stop button does
    expect((await stopReply(server.url, "stopped")).status).toBe(200);

    const conversation = await pollUntil(
      () => view("stopped"),
      (c) => c.messages[1]?.metadata?.status === "incomplete",
    );
    expect(conversation.messages.map((m) => [m.id, m.role])).toEqual([
      ["s1", "user"],
      [replyId, "assistant"],
    ]);
    expect(messageText(conversation.messages[0])).toBe("write 2000 words about rivers");
    const partial = conversation.messages[1]!;
    expect(partial.metadata?.status).toBe("incomplete");
    const partialText = messageText(partial);
    expect(partialText.startsWith(streamed)).toBe(true);
    expect(words(partialText).length).toBeGreaterThan(0);
    expect(words(partialText).length).toBeLessThan(2000);

    const next = await chat(server.url, {
      conversationId: "stopped",
      messageId: "s2",
      text: "write 3 words about rain",
    });
    expect(next.response.status).toBe(200);
    expect(words(next.text)).toHaveLength(3);
    const after = await view("stopped");
    expect(after.messages.map((m) => m.id).slice(0, 3)).toEqual(["s1", replyId, "s2"]);
    expect(after.messages).toHaveLength(4);
    expect(after.messages[3]?.metadata?.status).toBeUndefined();
    expect(messageText(after.messages[3])).toBe(next.text);
  });

  it("answers 409 to a second message while a reply is still streaming", async () => {
    const { controller, replyId } = await startLongReply("busy", "b1");
    try {
      const second = await postChat(server.url, { conversationId: "busy", messageId: "b2", text: "hello" });
      await expectApiError(second, 409, "conflict");
    } finally {
      controller.abort();
      await stopReply(server.url, "busy");
    }
    const conversation = await pollUntil(() => view("busy"), settled);
    expect(conversation.messages.map((m) => m.id)).toEqual(["b1", replyId]);
  });
});
