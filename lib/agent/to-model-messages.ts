// Converts the stored UI messages into the exact model input. Pure and deterministic: the same messages always give
// byte-identical model messages, which keeps each call's input a prefix-extension of the previous one.
// A data-hint part becomes a separate user-role message at its position, splitting the assistant message around it;
// so does a data-steer part (a message the person queued into the running reply), converted as the person's message.
// Only those hints may carry hint tags: everyone else's text goes through neutralizeHintTags. A hint that came in
// with an import was not written by this harness for this conversation: it stays in the transcript but is not sent
// (rather than sent as plain text, which would still read as a claim about the time and tasks).
import type { AssistantModelMessage, ModelMessage, ToolModelMessage } from "ai";
import type { ChatMessage, ChatMessagePart } from "../chat-message.ts";
import { toolOutputText } from "../tool-output.ts";
import { attachmentModelParts, isFilePart } from "./attachments.ts";
import { neutralizeHintTags, neutralizeHintTagsDeep } from "./hints/neutralize-tags.ts";
import { writeTime } from "./hints/read-time.ts";

/**
 * How the stored messages are turned into model input beyond the fixed rules. `timestamps`: each person's message and
 * each tool result starts with the time it was stored (`[2025-09-14 10:30:45] `, in `zone`) — a time fixed in the
 * stored message, so the input stays the same call after call.
 */
export type ConvertOptions = { timestamps?: { zone: string } };

export const TIMESTAMP_FORMAT = "yyyy-MM-dd HH:mm:ss";

/** `[2025-09-14 10:30:45] ` for a stored ISO time in `zone`, or "" when there is no valid time. */
export function timestampPrefix(iso: unknown, zone: string): string {
  const date = typeof iso === "string" ? new Date(iso) : undefined;
  if (!date || Number.isNaN(date.getTime())) return "";
  try {
    return `[${writeTime(date, zone, TIMESTAMP_FORMAT)}] `;
  } catch {
    return `[${writeTime(date, "UTC", TIMESTAMP_FORMAT)}] `;
  }
}

/** The key of a conversion: messages converted under the same key are the same model input. */
export const convertKey = (options: ConvertOptions | undefined): string =>
  options?.timestamps ? `ts:${options.timestamps.zone}` : "";

type AssistantContent = Exclude<AssistantModelMessage["content"], string>;
type ToolContent = ToolModelMessage["content"];

type ToolPartLike = {
  type: string;
  toolCallId: string;
  toolName?: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  /** When the result was produced (recorded by the reply loop). */
  resultAt?: string;
};

function asToolPart(part: ChatMessagePart): (ToolPartLike & { toolName: string }) | null {
  if (!(part.type.startsWith("tool-") || part.type === "dynamic-tool")) return null;
  const p = part as unknown as ToolPartLike;
  if (typeof p.toolCallId !== "string") return null;
  const toolName = part.type === "dynamic-tool" ? p.toolName : part.type.slice("tool-".length);
  return typeof toolName === "string" ? { ...p, toolName } : null;
}

/**
 * `stamp`: the result's timestamp prefix ("" without timestamps); a JSON result then goes as its JSON text. A built-in
 * tool's result (an object holding its text) goes as that text, as a result stored as text does: the same input.
 */
function toolOutput(
  part: ToolPartLike & { toolName: string },
  stamp = "",
): ToolContent[number] extends infer R ? (R extends { type: "tool-result"; output: infer O } ? O : never) : never {
  if (part.state === "output-error")
    return { type: "error-text", value: stamp + neutralizeHintTags(part.errorText ?? "Tool failed.") };
  const text = toolOutputText(part.toolName, part.output);
  if (text !== undefined) return { type: "text", value: stamp + neutralizeHintTags(text) };
  if (stamp) return { type: "text", value: stamp + JSON.stringify(neutralizeHintTagsDeep(part.output ?? null)) };
  return { type: "json", value: neutralizeHintTagsDeep(part.output ?? null) as never };
}

/** A steer's data as the person's message it was queued as (null when it holds no parts). */
function steerMessage(data: unknown): ChatMessage | null {
  const steer = data as { messageId?: unknown; parts?: unknown; createdAt?: unknown } | undefined;
  if (!Array.isArray(steer?.parts)) return null;
  return {
    id: typeof steer.messageId === "string" ? steer.messageId : "",
    role: "user",
    parts: steer.parts as ChatMessage["parts"],
    metadata: typeof steer.createdAt === "string" ? { createdAt: steer.createdAt } : {},
  };
}

function userContent(message: ChatMessage, options?: ConvertOptions): string {
  const text = message.parts
    .filter((p): p is Extract<ChatMessagePart, { type: "text" }> => p.type === "text")
    .map((p) => neutralizeHintTags(p.text))
    .join("\n\n");
  return text && options?.timestamps
    ? timestampPrefix(message.metadata?.createdAt, options.timestamps.zone) + text
    : text;
}

function convertAssistant(message: ChatMessage, out: ModelMessage[], options?: ConvertOptions): void {
  let content: AssistantContent = [];
  let results: ToolContent = [];
  const flush = () => {
    // A lone text part goes as a string: the same request on the wire, and the AI SDK converts a string several
    // times faster than a part list, which counts when a long conversation is sent on every call.
    const [only] = content;
    if (content.length === 1 && only?.type === "text") out.push({ role: "assistant", content: only.text });
    else if (content.length) out.push({ role: "assistant", content });
    if (results.length) out.push({ role: "tool", content: results });
    content = [];
    results = [];
  };
  for (const part of message.parts) {
    if (part.type === "step-start") {
      flush();
    } else if (part.type === "text") {
      if (part.text) content.push({ type: "text", text: neutralizeHintTags(part.text) });
    } else if (part.type === "data-hint") {
      const data = part.data as { text?: unknown; imported?: unknown; superseded?: unknown } | undefined;
      if (data?.imported === true || data?.superseded === true) continue;
      flush();
      if (typeof data?.text === "string" && data.text) out.push({ role: "user", content: data.text });
    } else if (part.type === "data-steer") {
      const steer = steerMessage(part.data);
      if (!steer) continue;
      flush();
      convertUser(steer, out, options);
    } else {
      const tool = asToolPart(part);
      // A call without a result (the reply stopped mid-tool) cannot be sent: providers reject unanswered calls.
      if (!tool || (tool.state !== "output-available" && tool.state !== "output-error")) continue;
      content.push({
        type: "tool-call",
        toolCallId: tool.toolCallId,
        toolName: tool.toolName,
        input: neutralizeHintTagsDeep(tool.input ?? {}),
      });
      const stamp = options?.timestamps
        ? timestampPrefix(tool.resultAt ?? message.metadata?.createdAt, options.timestamps.zone)
        : "";
      results.push({
        type: "tool-result",
        toolCallId: tool.toolCallId,
        toolName: tool.toolName,
        output: toolOutput(tool, stamp),
      });
    }
  }
  flush();
}

function convertUser(message: ChatMessage, out: ModelMessage[], options?: ConvertOptions): void {
  const text = userContent(message, options);
  // Attachments follow the person's text, in the order they were attached; without any the text goes as a
  // string, as it always has (conversations stored before attachments convert to the same input).
  const files = (message.parts as ReadonlyArray<{ type: string }>).filter(isFilePart);
  if (files.length === 0) {
    if (text) out.push({ role: "user", content: text });
  } else {
    const content = [...(text ? [{ type: "text" as const, text }] : []), ...files.flatMap(attachmentModelParts)];
    out.push({ role: "user", content });
  }
}

export function toModelMessages(messages: readonly ChatMessage[], options?: ConvertOptions): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      convertUser(message, out, options);
    } else if (message.role === "assistant") {
      convertAssistant(message, out, options);
    }
  }
  return out;
}
