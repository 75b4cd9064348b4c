// Continue: the last reply, stopped before its end (Stop, an error, its length limit), goes on in place. The model
// gets the conversation with the partial reply as its last assistant message, then one short reminder to go on from
// exactly there (a hint part of the reply itself: shown as a chip, never as a message of the person's). The reply's
// row grows: the new text follows the old, its calls follow the old ones in `metadata.usage`.
import type { ChatChunk, ChatMessage, HintData, HintSource } from "../chat-message.ts";

export const CONTINUE_HINT_SOURCE: HintSource = { label: "System", sublabel: "Continue" };

/** What the model is told, after its partial reply. Short and fixed, so the call stays cheap to cache. */
export const CONTINUE_REMINDER =
  "<system-reminder>\nYour previous reply was cut off. Continue it exactly where it stopped: do not repeat or summarise what you already wrote.\n</system-reminder>";

/** The hint chunk that opens a continuation (`now`: the injected clock). */
export function continueHintChunk(
  replyId: string,
  callNumber: number,
  now: Date,
): { type: "data-hint"; id: string; data: HintData } {
  return {
    type: "data-hint",
    id: `continue-${replyId}-${callNumber}`,
    data: { source: CONTINUE_HINT_SOURCE, fields: {}, text: CONTINUE_REMINDER, createdAt: now.toISOString() },
  };
}

export type ContinueRefusal = { status: 400 | 409; reason: string };

/** Whether the conversation's last message is a reply that can be continued; why not, if not. */
export function continuable(last: ChatMessage | undefined): ChatMessage | ContinueRefusal {
  if (!last) return { status: 400, reason: "This conversation has no reply to continue." };
  if (last.role !== "assistant")
    return {
      status: 400,
      reason: "The last message is yours, not a reply: there is nothing to continue. Send a message or regenerate.",
    };
  const status = last.metadata?.status;
  if (status === "streaming")
    return { status: 409, reason: "The reply is still being written; wait for it or stop it first." };
  if (status !== "incomplete" && status !== "error") {
    return {
      status: 409,
      reason: "The last reply is complete; only a reply that was stopped or cut off can be continued.",
    };
  }
  return last;
}

export const isRefusal = (value: ChatMessage | ContinueRefusal): value is ContinueRefusal => "reason" in value;

/**
 * The reply so far as stream chunks, sent ahead of a continuation so that every client that follows the live reply
 * (the one that asked, a reload, another tab: a resume replays from the first chunk) rebuilds the whole message.
 * For display only: the stored reply grows from its stored parts.
 */
export function replayChunks(parts: ChatMessage["parts"]): ChatChunk[] {
  const out: ChatChunk[] = [];
  parts.forEach((part, i) => {
    const p = part as Record<string, unknown> & { type: string };
    if (p.type === "step-start") out.push({ type: "start-step" }, { type: "finish-step" });
    else if ((p.type === "text" || p.type === "reasoning") && typeof p.text === "string") {
      const id = `replay-${i}`;
      const kind = p.type;
      out.push({ type: `${kind}-start`, id }, { type: `${kind}-delta`, id, delta: p.text }, {
        type: `${kind}-end`,
        id,
      } as ChatChunk);
    } else if (p.type.startsWith("data-")) {
      out.push({ type: p.type, ...(typeof p.id === "string" ? { id: p.id } : {}), data: p.data } as ChatChunk);
    } else if (p.type.startsWith("tool-") && typeof p.toolCallId === "string") {
      const toolCallId = p.toolCallId;
      out.push({
        type: "tool-input-available",
        toolCallId,
        toolName: p.type.slice("tool-".length),
        input: p.input ?? {},
      });
      if (p.state === "output-available") out.push({ type: "tool-output-available", toolCallId, output: p.output });
      if (p.state === "output-error")
        out.push({
          type: "tool-output-error",
          toolCallId,
          errorText: typeof p.errorText === "string" ? p.errorText : "",
        });
    }
  });
  return out;
}
