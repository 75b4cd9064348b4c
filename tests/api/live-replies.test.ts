// Live replies (issue #17): a reply outlives the request that started it, any connection can resume it from its first
// chunk, Stop works from anywhere, and every write reaches the open tabs as a change event.
import { describe, expect, it } from "vitest";
import { providerServerForFile } from "../support/app-server.ts";
import {
  chat,
  chunkReader,
  getJson,
  postChat,
  readChunks,
  type StreamChunk,
  stopReply,
  streamedText,
} from "../support/chat-client.ts";
import { type ConversationView, expectApiError, messageText, pollUntil, readUntil } from "./helpers.ts";

const env = providerServerForFile();

const longText = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

async function view(id: string): Promise<ConversationView> {
  const { status, body } = await getJson<ConversationView>(`${env.server.url}/api/conversations/${id}`);
  expect(status).toBe(200);
  return body;
}

const lastStatus = async (id: string) => (await view(id)).messages.at(-1)?.metadata?.status;

/** A stream as a client keeps it: a transient snapshot that a later one of the same kind replaces is dropped. */
function newestSnapshots(chunks: StreamChunk[]): StreamChunk[] {
  const key = (c: StreamChunk) =>
    c.transient === true && c.type.startsWith("data-") ? `${c.type}/${String(c.id)}` : undefined;
  return chunks.filter((chunk, i) => {
    const k = key(chunk);
    return k === undefined || !chunks.slice(i + 1).some((later) => key(later) === k);
  });
}

describe("a reply outlives its browser", () => {
  it("keeps generating after the request is aborted mid-reply and is stored complete", async () => {
    const text = longText(60);
    env.fake.enqueue({ text, chunkDelayMs: 25 });
    const controller = new AbortController();
    const response = await postChat(env.server.url, {
      conversationId: "outlive",
      messageId: "o1",
      text: "go",
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    await readUntil(response, (c) => c.type === "text-delta");
    controller.abort();
    const conversation = await pollUntil(
      () => view("outlive"),
      (c) => c.messages[1]?.metadata?.status !== "streaming",
      15_000,
    );
    expect(conversation.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(conversation.messages[1]?.metadata?.status).toBeUndefined();
    expect(messageText(conversation.messages[1])).toBe(text);
  });
});

describe("resume: GET /api/conversations/:id/stream", () => {
  it("replays the live reply from its first chunk on another connection and follows it to the end", async () => {
    env.fake.enqueue({
      kind: "tools",
      calls: [{ name: "TaskCreate", arguments: { subject: "draft", description: "the first draft" } }],
    });
    env.fake.enqueue({ text: longText(40), chunkDelayMs: 25 });
    const original = await postChat(env.server.url, {
      conversationId: "resume",
      messageId: "r1",
      text: "plan and write",
    });
    expect(original.status).toBe(200);
    const originalReader = chunkReader(original);
    await originalReader.until((c) => c.type === "text-delta");
    const resumed = await fetch(`${env.server.url}/api/conversations/resume/stream`);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get("content-type")).toMatch(/text\/event-stream/);
    expect(resumed.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const [originalChunks, replayed] = await Promise.all([originalReader.rest(), readChunks(resumed)]);
    // Text, the tool row, the task snapshot, the meter and the closing status, in the same order.
    for (const type of [
      "start",
      "tool-input-available",
      "tool-output-available",
      "data-tasks",
      "data-context-usage",
      "text-delta",
      "message-metadata",
      "finish",
    ]) {
      expect(replayed.map((c) => c.type)).toContain(type);
    }
    // Every chunk but a transient snapshot that a later one replaced (the relay keeps only the newest of each).
    expect(newestSnapshots(replayed)).toEqual(newestSnapshots(originalChunks));
    const lasting = (chunks: StreamChunk[]) => chunks.filter((c) => c.transient !== true);
    expect(lasting(replayed)).toEqual(lasting(originalChunks));
    expect(streamedText(replayed)).toBe(longText(40));
    // Over: nothing is live any more.
    expect((await fetch(`${env.server.url}/api/conversations/resume/stream`)).status).toBe(204);
  });

  it("answers 204 when no reply is live, 404 for an unknown conversation and 400 for a bad id", async () => {
    env.fake.enqueue({ text: "done" });
    await chat(env.server.url, { conversationId: "idle", text: "hi" });
    const idle = await fetch(`${env.server.url}/api/conversations/idle/stream`);
    expect(idle.status).toBe(204);
    expect(await idle.text()).toBe("");
    await expectApiError(await fetch(`${env.server.url}/api/conversations/nobody/stream`), 404, "not_found");
    await expectApiError(await fetch(`${env.server.url}/api/conversations/bad%20id/stream`), 400, "bad_request");
  });
});

describe("stop anywhere: POST /api/conversations/:id/stop", () => {
  it("stops the reply another connection started; it is stored incomplete and the next message works", async () => {
    env.fake.enqueue({ text: longText(400), chunkDelayMs: 20 });
    const original = await postChat(env.server.url, { conversationId: "stop", messageId: "s1", text: "write a lot" });
    const originalReader = chunkReader(original);
    await originalReader.until((c) => c.type === "text-delta");
    const stopped = await stopReply(env.server.url, "stop");
    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toEqual({ stopped: true });
    // Answered once the reply is stored as stopped.
    const conversation = await view("stop");
    expect(conversation.messages[1]?.metadata?.status).toBe("incomplete");
    const partial = messageText(conversation.messages[1]);
    expect(partial.split(" ").length).toBeLessThan(400);
    // The starting connection sees the end of the reply with its status.
    const rest = await originalReader.rest();
    expect(rest.find((c) => c.type === "message-metadata")?.messageMetadata).toMatchObject({ status: "incomplete" });
    expect(rest.at(-1)?.type).toBe("finish");

    await expectApiError(await stopReply(env.server.url, "stop"), 409, "conflict");
    await expectApiError(await stopReply(env.server.url, "nobody"), 404, "not_found");
    await expectApiError(await stopReply(env.server.url, "bad%20id"), 400, "bad_request");
    env.fake.enqueue({ text: "yes" });
    const next = await chat(env.server.url, { conversationId: "stop", text: "still there?" });
    expect(next.text).toBe("yes");
    expect(await lastStatus("stop")).toBeUndefined();
  });
});
