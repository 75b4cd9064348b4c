// What the reply's loop options and its settling are made from (run.ts builds them, settle.ts stores the outcome).
import type { ChatChunk, CallUsage } from "../../chat-message.ts";
import type { ReplyContext, ReplyPorts } from "./context.ts";
import type { PreparedReply } from "./prepare.ts";
import type { replyReport } from "./report.ts";

/** What the loop's callbacks share: the model calls so far, and where the conversation's numbering continues. */
export type RunState = { calls: CallUsage[]; callsBefore: number; promptSource: string };

/** What the loop's options are made from: the reply, its ports, what was prepared, the run so far and the stream. */
export type LoopParts = {
  reply: ReplyContext;
  ports: ReplyPorts;
  prepared: PreparedReply;
  run: RunState;
  emit: (chunk: ChatChunk) => void;
  report: ReturnType<typeof replyReport>;
};
