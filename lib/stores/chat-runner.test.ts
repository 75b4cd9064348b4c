// The chat runner (what the page used of the AI SDK's AbstractChat) over a transport that plays chunk sequences: the
// status goes submitted → streaming → ready (or error), the person's message and the reply land in the transcript,
// Stop keeps the words so far, a resume with nothing live changes nothing, a replayed reply replaces its message, a
// regenerate drops the last reply, tool chunks wait for their lazily loaded reader, and a network drop is resumed.
import type { UIMessage, UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { ChatRunner } from "./chat-runner";
import type { ChatTransport, FinishInfo } from "./chat-shapes";

type Play = { chunks: UIMessageChunk[]; hold?: Promise<void>; holdAt?: number; failWith?: Error };

/** Plays a request's chunks as an SSE body; `hold` pauses before chunk `holdAt`; an abort errors the body (as fetch). */
class PlayingTransport implements ChatTransport<UIMessage> {
  sent: Parameters<ChatTransport<UIMessage>["sendMessages"]>[0][] = [];
  reconnects = 0;
  constructor(
    private readonly replies: Play[],
    private readonly live: (Play | null)[] = [],
  ) {}
  private play({ chunks, hold, holdAt, failWith }: Play, signal: AbortSignal): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let next = 0;
    return new ReadableStream({
      async pull(controller) {
        if (next === holdAt && hold)
          await Promise.race([
            hold,
            new Promise((_, reject) =>
              signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
            ),
          ]);
        const chunk = chunks[next++];
        if (chunk) controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
        else if (failWith) controller.error(failWith);
        else controller.close();
      },
    });
  }
  async sendMessages(options: Parameters<ChatTransport<UIMessage>["sendMessages"]>[0]) {
    this.sent.push(options);
    const reply = this.replies.shift();
    if (!reply) throw Object.assign(new Error('{"error":{"message":"no"}}'), { statusCode: 409 });
    return this.play(reply, options.abortSignal);
  }
  async reconnectToStream(options: { abortSignal: AbortSignal }) {
    this.reconnects++;
    const live = this.live.shift() ?? null;
    return live && this.play(live, options.abortSignal);
  }
}

const text = (id: string, words: string[]): UIMessageChunk[] => [
  { type: "start", messageId: id },
  { type: "start-step" },
  { type: "text-start", id: "t" },
  ...words.map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
  { type: "text-end", id: "t" },
  { type: "finish-step" },
  { type: "finish", messageMetadata: { status: "complete" } },
];

function runner(transport: PlayingTransport, messages: UIMessage[] = []) {
  const statuses: string[] = ["ready"];
  const finished: FinishInfo<UIMessage>[] = [];
  const data: string[] = [];
  const chat = new ChatRunner("c1", messages, transport, {
    onFinish: (info) => finished.push(info),
    onData: (part) => data.push(part.type),
  });
  chat.subscribe(() => {
    if (statuses.at(-1) !== chat.status) statuses.push(chat.status);
  });
  return { chat, statuses, finished, data };
}

const textOf = (m: UIMessage | undefined) =>
  m?.parts.map((p) => (p.type === "text" ? p.text : p.type === "file" ? `[${p.filename}]` : "")).join("");

describe("the chat runner", () => {
  it("sends the person's message (files first) and reads the reply: submitted, streaming, ready", async () => {
    const reply = text("r1", ["Hello", ", there"]);
    reply.splice(1, 0, { type: "data-tasks", id: "tasks", data: [], transient: true } as UIMessageChunk);
    const transport = new PlayingTransport([{ chunks: reply }]);
    const { chat, statuses, finished, data } = runner(transport);
    const file = { type: "file" as const, mediaType: "text/plain", filename: "a.txt", url: "data:,a" };
    await chat.sendMessage({ text: "hi", files: [file] }, { body: { editOf: "m0" } });
    expect(statuses).toEqual(["ready", "submitted", "streaming", "ready"]);
    expect(chat.messages.map((m) => [m.role, textOf(m)])).toEqual([
      ["user", "[a.txt]hi"],
      ["assistant", "Hello, there"],
    ]);
    expect(chat.messages[0]!.id).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(chat.messages[1]).toMatchObject({ id: "r1", metadata: { status: "complete" } });
    expect(transport.sent[0]).toMatchObject({ chatId: "c1", trigger: "submit-message", body: { editOf: "m0" } });
    expect(transport.sent[0]!.messages).toHaveLength(1);
    expect(data).toEqual(["data-tasks"]);
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ isAbort: false, isError: false, isDisconnect: false });
  });

  it("ends in error on an error chunk or a refusal, keeping the words so far", async () => {
    const chunks = text("r1", ["Half"]).slice(0, 4);
    const transport = new PlayingTransport([{ chunks: [...chunks, { type: "error", errorText: "Provider down." }] }]);
    const { chat, statuses, finished } = runner(transport);
    await chat.sendMessage({ text: "hi" });
    expect(statuses).toEqual(["ready", "submitted", "streaming", "error"]);
    expect(chat.error?.message).toBe("Provider down.");
    expect(textOf(chat.messages.at(-1))).toBe("Half");
    expect(finished[0]).toMatchObject({ isError: true, isAbort: false });
    chat.clearError();
    expect([chat.status, chat.error]).toEqual(["ready", undefined]);
    await chat.sendMessage({ text: "again" });
    expect(chat.status).toBe("error");
    expect((chat.error as Error & { statusCode?: number }).statusCode).toBe(409);
  });

  it("stops a reply: the request ends, the words so far stay, and the status is ready", async () => {
    let release = () => {};
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transport = new PlayingTransport([{ chunks: text("r1", ["Kept", " never"]), hold, holdAt: 4 }]);
    const { chat, finished } = runner(transport);
    const sending = chat.sendMessage({ text: "hi" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await chat.stop();
    await sending;
    release();
    expect(chat.status).toBe("ready");
    expect(finished[0]).toMatchObject({ isAbort: true });
    expect(textOf(chat.messages.at(-1))).toBe("Kept");
  });

  it("resumes: nothing live changes nothing; a replay replaces the reply it repeats; regenerate drops the last reply", async () => {
    const stored: UIMessage[] = [
      { id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] },
      { id: "r1", role: "assistant", parts: [{ type: "text", text: "Hel" }], metadata: { status: "streaming" } },
    ];
    const transport = new PlayingTransport(
      [{ chunks: text("r2", ["Again"]) }],
      [null, { chunks: text("r1", ["Hel", "lo"]) }],
    );
    const { chat, statuses } = runner(transport, stored);
    await chat.resumeStream();
    expect(statuses).toEqual(["ready"]);
    expect(chat.messages).toBe(stored);
    await chat.resumeStream();
    expect(chat.messages.map(textOf)).toEqual(["hi", "Hello"]);
    await chat.regenerate();
    expect(transport.sent[0]).toMatchObject({ trigger: "regenerate-message" });
    expect(transport.sent[0]!.messages.map((m) => m.id)).toEqual(["u1"]);
    expect(chat.messages.map(textOf)).toEqual(["hi", "Again"]);
  });

  it("reads tool chunks with the reader it loads, and resumes a reply a network drop cut", async () => {
    const tools: UIMessageChunk[] = [
      { type: "start", messageId: "r1" },
      { type: "start-step" },
      { type: "tool-input-start", toolCallId: "c", toolName: "echo" },
      { type: "tool-input-delta", toolCallId: "c", inputTextDelta: '{"message": "h' },
    ];
    const transport = new PlayingTransport(
      [{ chunks: tools, failWith: new TypeError("Failed to fetch") }],
      [
        {
          chunks: [
            ...tools.slice(0, 2),
            { type: "tool-input-available", toolCallId: "c", toolName: "echo", input: { message: "hi" } },
          ],
        },
      ],
    );
    const { chat, finished } = runner(transport);
    await chat.sendMessage({ text: "mcp echo" });
    expect(chat.messages.at(-1)!.parts[1]).toMatchObject({
      type: "tool-echo",
      state: "input-streaming",
      input: { message: "h" },
    });
    expect(finished[0]).toMatchObject({ isError: true, isDisconnect: true });
    await chat.resumeIfDisconnected();
    expect(transport.reconnects).toBe(1);
    expect(chat.status).toBe("ready");
    expect(chat.messages.at(-1)!.parts[1]).toMatchObject({ state: "input-available", input: { message: "hi" } });
  });
});
