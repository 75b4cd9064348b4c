// Runs that outlive their process, on a one-process server (SQLite): at start-up, every reply the last run left
// "streaming" goes on from its last finished step (lib/agent/resume-point.ts), 16 at a time, under the reply lock
// it takes before the server answers anyone — so no request settles it as interrupted meanwhile. PostgreSQL's
// instances take over each other's runs instead (not yet: there a dead instance's reply is settled after its lease).
import type { ChatMessage, ResumeData } from "../../chat-message.ts";
import { now as clockNow } from "../../clock.ts";
import {
  INTERRUPTED_CALL_ADVICE,
  interruptedCallText,
  resumePoint,
  TOOL_INTERRUPTED_ERROR,
} from "../../agent/resume-point.ts";
import { ToolError } from "../../agent/tool-result.ts";
import { databaseUrl, isPostgresUrl } from "../../db/client.ts";
import { getConversation } from "../../db/conversations.ts";
import { getConversationMcpToolsRow } from "../../db/conversation-mcp-tools.ts";
import { listMessages, listStreamingReplies, settleStaleReplies, updateMessage } from "../../db/messages.ts";
import { listTasks } from "../../db/tasks.ts";
import { log, logFailure } from "../../log/logger.ts";
import { modelForConversation } from "../conversation-model.ts";
import { detachReply } from "../live/live-reply.ts";
import { replyLock } from "../live/reply-lock.ts";
import { storedList } from "../mcp-reply.ts";
import type { OpenedReply } from "../reply/open-turn.ts";
import { replyContextOf, replyStream } from "../start-reply.ts";
import { readOnlyTools } from "../tools/read-only.ts";
import { createCallCounter } from "../tools/tool-context.ts";

/**
 * Replies resumed at once; the others wait their turn (each holds its conversation's lock meanwhile). A reply mostly
 * waits on its provider, so this bounds the burst of model calls a restart sends rather than the server's own work.
 */
const AT_ONCE = 16;

type HeldReply = { conversationId: string; replyId: string; controller: AbortController };

/**
 * Takes the lock of every reply the last run left and resumes them in the background. Resolves with how many, once
 * every lock is held: call it before the server answers requests.
 */
export async function resumeLeftReplies(): Promise<number> {
  if (isPostgresUrl(databaseUrl())) return 0;
  const held: HeldReply[] = [];
  for (const { conversationId, id } of await listStreamingReplies()) {
    const controller = await replyLock().acquire(conversationId, id);
    if (controller) held.push({ conversationId, replyId: id, controller });
  }
  if (held.length) log().info({ replies: held.length }, "resuming the replies the last run left");
  const queue = [...held];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await resumeHeld(next);
  };
  void Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, worker));
  return held.length;
}

/** Resumes one reply until it ends (or settles it as interrupted when it cannot go on). */
async function resumeHeld({ conversationId, replyId, controller }: HeldReply): Promise<void> {
  const release = () =>
    replyLock()
      .release(conversationId, replyId)
      .catch(logFailure("releasing the reply lock failed", { conversationId, replyId }));
  let stream: ReturnType<typeof replyStream>;
  try {
    const opened = await openResumption(conversationId, replyId);
    if (!opened) {
      await release();
      await settleStaleReplies({ conversationId, activeIds: new Set() });
      return;
    }
    const reply = await replyContextOf({ opened, replyId, signal: controller.signal, resumed: opened.resumed });
    let ended!: () => void;
    const over = new Promise<void>((resolve) => {
      ended = resolve;
    });
    stream = replyStream(reply, undefined, async () => {
      await release();
      ended();
    });
    // Followers (GET …/stream, any tab) see it go on; nobody here reads the answer.
    await detachReply({ conversationId, replyId, stream }).body?.cancel();
    await over;
  } catch (error) {
    logFailure("resuming a reply failed; it is settled as interrupted", { conversationId, replyId })(error);
    await release();
    await settleStaleReplies({ conversationId, activeIds: new Set() }).catch(() => {});
  }
}

/**
 * The reply as it goes on: its stored parts cut back to the last finished step, with the resume recorded in its
 * metadata. None when it is not the conversation's last message or belongs to a subagent (settled as before).
 */
async function openResumption(
  conversationId: string,
  replyId: string,
): Promise<(OpenedReply & { resumed: ResumeData }) | undefined> {
  const conversation = await getConversation({ id: conversationId });
  if (!conversation || conversation.parentId) return undefined;
  const messages = await listMessages({ conversationId });
  const stored = messages.at(-1);
  if (stored?.id !== replyId || stored.role !== "assistant") return undefined;
  const resolved = modelForConversation(conversation.model);
  const [tasks, mcpRow] = await Promise.all([
    listTasks({ conversationId }),
    getConversationMcpToolsRow({ conversationId }),
  ]);
  const history = messages.slice(0, -1);
  const cut = resumePoint(stored.parts, {
    readOnly: readOnlyTools(storedList(mcpRow).tools),
    interruptedText: ({ toolName, input, before }) =>
      new ToolError({
        type: TOOL_INTERRUPTED_ERROR,
        text: interruptedCallText(toolName),
        args: input,
        advice: INTERRUPTED_CALL_ADVICE,
        toolName,
        call: createCallCounter([...history, { ...stored, parts: [...before] }])(toolName),
      }).message,
  });
  const resumed: ResumeData = { at: clockNow().toISOString(), afterStep: cut.afterStep, reason: "restart" };
  const { status: _status, ...kept } = stored.metadata ?? {};
  const metadata = { ...kept, resumes: [...(kept.resumes ?? []), resumed] };
  const continued: ChatMessage = { ...stored, parts: cut.parts, metadata };
  const committed = updateMessage({ conversationId, id: replyId, parts: cut.parts, metadata });
  committed.catch(() => {}); // awaited by the run before it writes
  return {
    conversation: { ...conversation, created: false },
    resolved,
    tasks,
    turn: { history, committed, continued },
    resumed,
  };
}
