import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../chat-message.ts";
import { CONTINUE_REMINDER, continuable, continueHintChunk, isRefusal } from "./continue-reply.ts";
import { toModelMessages } from "./to-model-messages.ts";

const reply = (status?: "incomplete" | "error" | "streaming"): ChatMessage => ({
  id: "r1",
  role: "assistant",
  parts: [{ type: "text", text: "One two three" }],
  metadata: status ? { status } : {},
});

describe("Continue", () => {
  it("continues a stopped or failed reply, and names why not otherwise", () => {
    expect(continuable(reply("incomplete"))).toEqual(reply("incomplete"));
    expect(continuable(reply("error"))).toEqual(reply("error"));
    const refusals = [
      continuable(undefined),
      continuable({ id: "u", role: "user", parts: [] }),
      continuable(reply()),
      continuable(reply("streaming")),
    ];
    expect(refusals.map((r) => (isRefusal(r) ? r.status : 0))).toEqual([400, 400, 409, 409]);
    expect(isRefusal(refusals[2]!) && refusals[2].reason).toMatch(/complete/);
  });

  it("tells the model once, after its partial reply, stamped by the injected clock; the reply's parts grow around it", () => {
    const chunk = continueHintChunk("r1", 3, new Date("2026-07-01T10:00:00Z"));
    expect(chunk).toEqual({
      type: "data-hint",
      id: "continue-r1-3",
      data: {
        source: { label: "System", sublabel: "Continue" },
        fields: {},
        text: CONTINUE_REMINDER,
        createdAt: "2026-07-01T10:00:00.000Z",
      },
    });
    const grown: ChatMessage = {
      ...reply(),
      parts: [
        ...reply().parts,
        { type: chunk.type, id: chunk.id, data: chunk.data },
        { type: "text", text: "four five" },
      ],
    };
    expect(toModelMessages([{ id: "u", role: "user", parts: [{ type: "text", text: "count" }] }, grown])).toEqual([
      { role: "user", content: "count" },
      { role: "assistant", content: "One two three" },
      { role: "user", content: CONTINUE_REMINDER },
      { role: "assistant", content: "four five" },
    ]);
  });
});

describe("the reply so far, replayed ahead of a continuation", () => {
  it("rebuilds the stored parts in a client that folds the stream", async () => {
    const { AssistantMessageBuilder } = await import("./assistant-message-builder.ts");
    const { replayChunks } = await import("./continue-reply.ts");
    const hint = continueHintChunk("r1", 1, new Date("2026-07-01T10:00:00Z"));
    const parts = [
      { type: "step-start" },
      { type: "text", text: "Looking it up." },
      { type: "tool-TaskList", toolCallId: "c1", state: "output-available", input: {}, output: "No tasks." },
      { type: "data-hint", id: hint.id, data: hint.data },
      { type: "text", text: "One two" },
    ] as ChatMessage["parts"];
    const client = new AssistantMessageBuilder("r1", {}, () => new Date("2026-07-01T10:00:00Z"));
    for (const chunk of replayChunks(parts)) client.apply(chunk);
    const shape = (ps: ChatMessage["parts"]) =>
      ps.map((p) => ({
        type: p.type,
        text: "text" in p ? p.text : undefined,
        output: "output" in p ? p.output : undefined,
      }));
    expect(shape(client.message.parts)).toEqual(shape(parts));
  });
});
