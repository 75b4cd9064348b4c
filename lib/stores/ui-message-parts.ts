// The shapes the browser's UI message reader shares between its core (lib/stores/ui-message-stream.ts) and its tool
// chunks (lib/stores/ui-message-tools.ts): the streaming state, a part as the reader updates it, and how tool parts
// are told apart (`tool-<name>` static, `dynamic-tool`), as the AI SDK's processUIMessageStream (`ai` 7) does. Pure.
import type { UIMessage } from "ai";

/** A message part as the reader handles it: the AI SDK's part types are unions too wide to update field by field. */
export type LoosePart = { type: string; [key: string]: unknown };

export type PartialToolCall = {
  text: string;
  inputEncoding?: "json" | "text";
  index: number;
  toolName: string;
  dynamic?: boolean;
  title?: string;
  toolMetadata?: unknown;
};

export type StreamingMessage<M extends UIMessage = UIMessage> = {
  message: M;
  activeTextParts: Record<string, LoosePart>;
  activeReasoningParts: Record<string, LoosePart>;
  partialToolCalls: Record<string, PartialToolCall>;
  finishReason?: string;
};

/** What a chunk did: nothing to show, a new message state, or a new state that does not yet mean "streaming". */
export type ChunkEffect = "none" | "write" | "write-quietly";

export type ToolUpdate = {
  toolCallId: string;
  toolName: string;
  state: "input-streaming" | "input-available" | "output-available" | "output-error";
  input: unknown;
  output?: unknown;
  errorText?: string;
  rawInput?: unknown;
  inputEncoding?: "json" | "text";
  preliminary?: boolean;
  providerExecuted?: boolean;
  providerMetadata?: unknown;
  title?: string;
  toolMetadata?: unknown;
};

export const isStaticToolPart = (part: LoosePart) => part.type.startsWith("tool-");
export const isToolPart = (part: LoosePart) => isStaticToolPart(part) || part.type === "dynamic-tool";
export const staticToolName = (part: LoosePart) => part.type.split("-").slice(1).join("-");

/** The parts after the last step boundary. */
export function currentStepParts(parts: LoosePart[]): LoosePart[] {
  let start = parts.length - 1;
  while (start >= 0 && parts[start]!.type !== "step-start") start--;
  return parts.slice(start + 1);
}

/** A chunk that does not fit the message so far (the AI SDK's UIMessageStreamError, same words). */
export function streamError(message: string): Error {
  const error = new Error(message);
  error.name = "UIMessageStreamError";
  return error;
}
