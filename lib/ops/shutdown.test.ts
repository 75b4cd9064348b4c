import { describe, expect, it } from "vitest";
import { activeReplyList, beginReply, endReply } from "../chat/active-replies.ts";
import { isDraining, replyRunning, SHUTDOWN_REASON } from "../chat/draining.ts";
import { drain } from "./shutdown.ts";

describe("drain", () => {
  it("waits for running replies up to the grace, then stops the rest with the shutdown reason", async () => {
    const quick = beginReply("c-quick", "r-quick")!;
    const slow = beginReply("c-slow", "r-slow")!;
    const quickOver = replyRunning();
    const slowOver = replyRunning();
    // The quick reply ends within the grace; the slow one only when it is stopped.
    setTimeout(() => {
      endReply("c-quick", "r-quick");
      quickOver();
    }, 20);
    slow.signal.addEventListener("abort", () => {
      endReply("c-slow", "r-slow");
      slowOver();
    });
    const drained = drain(200);
    expect(isDraining()).toBe(true);
    await drained;
    expect(quick.signal.aborted).toBe(false);
    expect(slow.signal.reason).toBe(SHUTDOWN_REASON);
    expect(activeReplyList()).toEqual([]);
  });
});
