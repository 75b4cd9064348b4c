import { describe, expect, it } from "vitest";
import { activeReplyList, beginReply, endReply } from "../chat/active-replies.ts";
import { HANDOVER_REASON } from "../agent/resume-point.ts";
import { isDraining, replyRunning } from "../chat/draining.ts";
import { drain } from "./shutdown.ts";

describe("drain", () => {
  it("waits for running replies up to the grace, then hands the rest over (SQLite: the next start resumes them)", async () => {
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
    // The unit tests' database is SQLite; on PostgreSQL the reason is SHUTDOWN_REASON (tests/api/shutdown.test.ts).
    expect(slow.signal.reason).toBe(HANDOVER_REASON);
    expect(activeReplyList()).toEqual([]);
  });
});
