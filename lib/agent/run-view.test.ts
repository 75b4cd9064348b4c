import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../chat-message.ts";
import { runView } from "./run-view.ts";

const now = new Date("2026-12-06T12:00:30Z");
const user: ChatMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] };
const reply = (parts: ChatMessage["parts"], status?: "streaming"): ChatMessage => ({
  id: "r1",
  role: "assistant",
  parts,
  metadata: { createdAt: "2026-12-06T12:00:00.000Z", ...(status ? { status } : {}) },
});
const writing = reply([{ type: "step-start" }, { type: "text", text: "Hel" }], "streaming");
const decide = (messages: ChatMessage[], holder: Parameters<typeof runView>[0]["holder"]) =>
  runView({ messages, holder, now, silentAfterMs: 10_000 });

describe("runView", () => {
  it("is the held reply being written: running, on its step, alive now when this process holds it", () => {
    expect(decide([user, writing], { replyId: "r1" })).toEqual({
      id: "r1",
      status: "running",
      step: 1,
      startedAt: "2026-12-06T12:00:00.000Z",
      heartbeatAt: now.toISOString(),
    });
  });

  it("is null with no holder, a finished reply, or a holder of another reply", () => {
    expect(decide([user, writing], undefined)).toBeNull();
    expect(decide([user, reply([{ type: "step-start" }])], { replyId: "r1" })).toBeNull();
    expect(decide([user, writing], { replyId: "r2" })).toBeNull();
    expect(decide([user], { replyId: "u1" })).toBeNull();
  });

  it("waits while a call asks for approval, and counts the steps begun (0 before the first model call)", () => {
    const asking = reply(
      [
        { type: "step-start" },
        { type: "step-start" },
        { type: "tool-echo", toolCallId: "c1", state: "approval-requested", input: {} } as never,
      ],
      "streaming",
    );
    expect(decide([user, asking], { replyId: "r1" })).toMatchObject({ status: "waiting", step: 2 });
    expect(
      decide([user, reply([{ type: "data-hint", data: {} } as never], "streaming")], { replyId: "r1" }),
    ).toMatchObject({ status: "running", step: 0 });
  });

  it("is recovering when its instance has been silent too long or a restart has yet to resume it", () => {
    const at = (ms: number) => new Date(now.getTime() - ms);
    expect(decide([user, writing], { replyId: "r1", heartbeatAt: at(10_000) })).toMatchObject({
      status: "running",
      heartbeatAt: at(10_000).toISOString(),
    });
    expect(decide([user, writing], { replyId: "r1", heartbeatAt: at(10_001) })?.status).toBe("recovering");
    expect(decide([user, writing], { replyId: "r1", resuming: true })?.status).toBe("recovering");
  });

  it("finds the reply wherever it stands (a steer may follow it)", () => {
    const steer: ChatMessage = { id: "u2", role: "user", parts: [{ type: "text", text: "also this" }] };
    expect(decide([user, writing, steer], { replyId: "r1" })?.id).toBe("r1");
  });
});
