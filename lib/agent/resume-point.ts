// Where a reply its process left behind goes on: its stored parts cut back to the last finished step. The step that was
// cut is redone whole (its partial text is dropped, never doubled) unless one of its tool calls may have taken effect:
// then the step is kept up to its last such call and the reply goes on with the next model call. A call whose result is
// stored never runs again; one that may have started and has none is answered with a ToolInterruptedError unless it
// only reads (dropped: the model may call it again); one whose input never finished streaming never started.
import type { ChatMessagePart } from "../chat-message.ts";

export const TOOL_INTERRUPTED_ERROR = "ToolInterruptedError";
/**
 * The stop reason of a reply handed over at a graceful shutdown (SQLite): it is not settled, and a call that waits for
 * the person keeps waiting, so that the next start resumes it as it would after a crash.
 */
export const HANDOVER_REASON = "The server is restarting; the reply goes on when it is back.";
/** Why a reply stops on an instance that was silent so long that another took its run over: it goes on there. */
export const TAKEN_OVER_REASON = "Another instance took this reply over; it goes on there.";
/** What a denied call's result says (as when the person's answer is applied in the reply loop). */
export const DENIED_TEXT = "The person denied this tool call.";

type ToolPart = {
  type: string;
  state?: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  approval?: { id?: string; approved?: boolean };
};

export type InterruptedCall = {
  toolName: string;
  toolCallId: string;
  input: unknown;
  /** The kept parts before this call (its number in the conversation counts them). */
  before: readonly ChatMessagePart[];
};

export type ResumePoint = {
  parts: ChatMessagePart[];
  /** The finished steps kept (the reply goes on with step `afterStep + 1`). */
  afterStep: number;
  /** The calls answered with a ToolInterruptedError, by id. */
  interrupted: string[];
  /** Calls that wait for the person's answer: the resumed reply waits for them before its next model call. */
  waiting: number;
};

const isToolPart = (part: { type: string }) => part.type.startsWith("tool-") || part.type === "dynamic-tool";
const toolNameOf = (part: ToolPart) => (part.type === "dynamic-tool" ? (part.toolName ?? "") : part.type.slice(5));

/** How a tool part of the cut step stands: its result stored, waiting for the person, maybe started, or not started. */
function standing(part: ToolPart, readOnly: (toolName: string) => boolean) {
  switch (part.state) {
    case "output-available":
    case "output-error":
    case "output-denied":
      return "done";
    case "approval-requested":
      return "waiting";
    case "approval-responded":
      // Denied: its error was about to be stored. Approved: it may have started running.
      if (part.approval?.approved === false) return "denied";
      return readOnly(toolNameOf(part)) ? "rerun" : "maybe-ran";
    case "input-available":
      return readOnly(toolNameOf(part)) ? "rerun" : "maybe-ran";
    default:
      return "not-started";
  }
}

export function resumePoint(
  stored: readonly ChatMessagePart[],
  options: {
    readOnly: (toolName: string) => boolean;
    /** The text of a call's ToolInterruptedError (with its call number). */
    interruptedText: (call: InterruptedCall) => string;
  },
): ResumePoint {
  const parts = stored.map((part) => structuredClone(part)) as ChatMessagePart[];
  const steps = parts.filter((p) => p.type === "step-start").length;
  const cutAt = parts.findLastIndex((p) => p.type === "step-start");
  // No step began: what is stored is what came before the first call (hints), kept as it is.
  if (cutAt < 0) return { parts, afterStep: 0, interrupted: [], waiting: 0 };
  const cut = parts.slice(cutAt);
  const standings = cut.map((p) => (isToolPart(p) ? standing(p as ToolPart, options.readOnly) : undefined));
  const lastKept = standings.findLastIndex(
    (s) => s === "done" || s === "waiting" || s === "maybe-ran" || s === "denied",
  );
  // Nothing of the step took effect: it is redone whole.
  if (lastKept < 0) return { parts: parts.slice(0, cutAt), afterStep: steps - 1, interrupted: [], waiting: 0 };
  const kept: ChatMessagePart[] = parts.slice(0, cutAt);
  const interrupted: string[] = [];
  let waiting = 0;
  cut.slice(0, lastKept + 1).forEach((part, i) => {
    const how = standings[i];
    if (how === "not-started" || how === "rerun") return;
    const tool = part as ToolPart;
    if (how === "maybe-ran") {
      interrupted.push(tool.toolCallId ?? "");
      const errorText = options.interruptedText({
        toolName: toolNameOf(tool),
        toolCallId: tool.toolCallId ?? "",
        input: tool.input,
        before: kept,
      });
      kept.push({ ...tool, state: "output-error", errorText } as unknown as ChatMessagePart);
      return;
    }
    if (how === "denied") {
      kept.push({ ...tool, state: "output-error", errorText: DENIED_TEXT } as unknown as ChatMessagePart);
      return;
    }
    if (how === "waiting") waiting++;
    kept.push(part);
  });
  return { parts: kept, afterStep: steps, interrupted, waiting };
}

/** A ToolInterruptedError's words (before the error's call counter). */
export function interruptedCallText(toolName: string): string {
  return `${TOOL_INTERRUPTED_ERROR}: ${toolName} was running when the server stopped, so it may or may not have taken effect.`;
}

export const INTERRUPTED_CALL_ADVICE =
  "Check whether it took effect (read the state it changes) before repeating it; do not repeat it blindly.";
