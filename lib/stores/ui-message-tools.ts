// The browser's UI message reader for `tool-*` chunks: a tool call's input streaming in (partial JSON repaired as it
// grows), available or refused, its approval asked and answered, its output or error — exactly as `ai` 7's
// processUIMessageStream updates the message (the keys it writes, undefined ones included, compare deep-equal in
// lib/stores/ui-message-stream.test.ts). Pure.
import type { UIMessageChunk } from "ai";
import { parsePartialJson } from "./partial-json";
import {
  type ChunkEffect,
  currentStepParts,
  isStaticToolPart,
  isToolPart,
  type LoosePart,
  type StreamingMessage,
  staticToolName,
  streamError,
  type ToolUpdate,
} from "./ui-message-parts";

const isOutput = (state: ToolUpdate["state"]) => state === "output-available" || state === "output-error";

function updateInPlace(part: LoosePart, update: ToolUpdate, dynamic: boolean): void {
  part.state = update.state;
  if (dynamic) part.toolName = update.toolName;
  else part.type = `tool-${update.toolName}`;
  part.input = update.input;
  part.output = update.output;
  part.errorText = update.errorText;
  part.rawInput = update.rawInput;
  if (update.inputEncoding != null) part.inputEncoding = update.inputEncoding;
  else delete part.inputEncoding;
  part.preliminary = update.preliminary;
  if (update.title !== undefined) part.title = update.title;
  if (update.toolMetadata !== undefined) part.toolMetadata = update.toolMetadata;
  // Once provider-executed, a part stays so while it streams.
  part.providerExecuted = update.providerExecuted ?? part.providerExecuted;
  if (update.providerMetadata != null) {
    if (isOutput(update.state)) part.resultProviderMetadata = update.providerMetadata;
    else part.callProviderMetadata = update.providerMetadata;
  }
}

function newPart(update: ToolUpdate, dynamic: boolean): LoosePart {
  const metadata =
    update.providerMetadata == null
      ? {}
      : isOutput(update.state)
        ? { resultProviderMetadata: update.providerMetadata }
        : { callProviderMetadata: update.providerMetadata };
  const common = {
    toolCallId: update.toolCallId,
    state: update.state,
    title: update.title,
    ...(update.toolMetadata !== undefined ? { toolMetadata: update.toolMetadata } : {}),
    input: update.input,
    ...(update.inputEncoding != null ? { inputEncoding: update.inputEncoding } : {}),
    output: update.output,
    errorText: update.errorText,
    providerExecuted: update.providerExecuted,
    preliminary: update.preliminary,
    ...metadata,
  };
  // A new dynamic part has no rawInput key (the AI SDK's own asymmetry, kept so messages compare equal).
  if (dynamic) return { type: "dynamic-tool", toolName: update.toolName, ...common };
  return { type: `tool-${update.toolName}`, ...common, rawInput: update.rawInput };
}

/** Updates the tool call's part (the given one, else the current step's of that kind), or adds one. */
export function updateToolPart(parts: LoosePart[], update: ToolUpdate, dynamic: boolean, existing?: LoosePart): void {
  const part =
    existing ??
    currentStepParts(parts).find(
      (p) => (dynamic ? p.type === "dynamic-tool" : isStaticToolPart(p)) && p.toolCallId === update.toolCallId,
    );
  if (part) updateInPlace(part, update, dynamic);
  else parts.push(newPart(update, dynamic));
}

/** The tool call's part: in the current step first, else the newest anywhere in the message. */
export function toolPartOf(parts: LoosePart[], toolCallId: string): LoosePart {
  const found =
    currentStepParts(parts).find((p) => isToolPart(p) && p.toolCallId === toolCallId) ??
    parts.findLast((p) => isToolPart(p) && p.toolCallId === toolCallId);
  if (!found) throw streamError(`No tool invocation found for tool call ID "${toolCallId}".`);
  return found;
}

export function toolPartByApproval(parts: LoosePart[], approvalId: string): LoosePart {
  const found = parts.find((p) => isToolPart(p) && (p.approval as { id?: string } | undefined)?.id === approvalId);
  if (!found) throw streamError(`No tool invocation found for approval ID "${approvalId}".`);
  return found;
}

/** Applies a `tool-*` chunk to the message (one the AI SDK does not read, like tool-input-end, does nothing). */
export function applyToolChunk(state: StreamingMessage, chunk: UIMessageChunk): ChunkEffect {
  const parts = state.message.parts as unknown as LoosePart[];
  switch (chunk.type) {
    case "tool-input-start": {
      state.partialToolCalls[chunk.toolCallId] = {
        text: "",
        inputEncoding: chunk.inputEncoding,
        toolName: chunk.toolName,
        index: currentStepParts(parts).filter(isStaticToolPart).length,
        dynamic: chunk.dynamic,
        title: chunk.title,
        toolMetadata: chunk.toolMetadata,
      };
      const { toolCallId, toolName, inputEncoding, providerExecuted, title, toolMetadata, providerMetadata } = chunk;
      const update = { toolCallId, toolName, inputEncoding, providerExecuted, title, toolMetadata, providerMetadata };
      updateToolPart(parts, { ...update, state: "input-streaming", input: undefined }, !!chunk.dynamic);
      return "write";
    }
    case "tool-input-delta": {
      const partial = state.partialToolCalls[chunk.toolCallId];
      if (!partial)
        throw streamError(
          `Received tool-input-delta for missing tool call with ID "${chunk.toolCallId}". ` +
            `Ensure a "tool-input-start" chunk is sent before any "tool-input-delta" chunks.`,
        );
      partial.text += chunk.inputTextDelta;
      const input = partial.inputEncoding === "text" ? partial.text : parsePartialJson(partial.text);
      const { toolName, inputEncoding, title, toolMetadata, text: rawInput } = partial;
      const update = { toolCallId: chunk.toolCallId, toolName, inputEncoding, title, toolMetadata, rawInput };
      updateToolPart(parts, { ...update, state: "input-streaming", input }, !!partial.dynamic);
      return "write";
    }
    case "tool-input-available": {
      const { toolCallId, toolName, input, providerExecuted, providerMetadata, title, toolMetadata } = chunk;
      const update = { toolCallId, toolName, input, providerExecuted, providerMetadata, title, toolMetadata };
      updateToolPart(parts, { ...update, state: "input-available" }, !!chunk.dynamic);
      return "write";
    }
    case "tool-input-error": {
      const existing = currentStepParts(parts).find((p) => isToolPart(p) && p.toolCallId === chunk.toolCallId);
      const dynamic = existing ? existing.type === "dynamic-tool" : !!chunk.dynamic;
      const { toolCallId, toolName, input, errorText, providerExecuted, providerMetadata, toolMetadata } = chunk;
      const update = { toolCallId, toolName, input, errorText, providerExecuted, providerMetadata, toolMetadata };
      updateToolPart(parts, { ...update, state: "output-error" }, dynamic);
      return "write";
    }
    case "tool-approval-request": {
      const part = toolPartOf(parts, chunk.toolCallId);
      part.state = "approval-requested";
      part.approval = {
        id: chunk.approvalId,
        ...(chunk.approvalDescriptor != null ? { descriptor: chunk.approvalDescriptor } : {}),
        ...(Object.hasOwn(chunk, "inputSchemaInput") ? { inputSchemaInput: chunk.inputSchemaInput } : {}),
        ...(chunk.reason != null ? { requestReason: chunk.reason } : {}),
        ...(chunk.isAutomatic === true ? { isAutomatic: true } : {}),
        ...(chunk.signature != null ? { signature: chunk.signature } : {}),
      };
      return "write";
    }
    case "tool-approval-response": {
      const part = toolPartByApproval(parts, chunk.approvalId);
      const approval = (part.approval as object | undefined) ?? { id: chunk.approvalId };
      part.state = "approval-responded";
      part.approval = {
        ...approval,
        id: chunk.approvalId,
        approved: chunk.approved,
        ...(chunk.reason != null ? { reason: chunk.reason } : {}),
      };
      if (chunk.providerExecuted != null) part.providerExecuted = chunk.providerExecuted;
      if (chunk.providerMetadata != null) part.callProviderMetadata = chunk.providerMetadata;
      return "write";
    }
    case "tool-output-denied":
      toolPartOf(parts, chunk.toolCallId).state = "output-denied";
      return "write";
    case "tool-output-available":
    case "tool-output-error":
      return toolOutput(chunk, parts);
    default:
      return "none";
  }
}

function toolOutput(
  chunk: Extract<UIMessageChunk, { type: "tool-output-available" | "tool-output-error" }>,
  parts: LoosePart[],
): ChunkEffect {
  const part = toolPartOf(parts, chunk.toolCallId);
  const dynamic = part.type === "dynamic-tool";
  // The AI SDK carries a static part's raw input into its error state (and a dynamic part's into nothing).
  const outcome =
    chunk.type === "tool-output-error"
      ? {
          state: "output-error" as const,
          errorText: chunk.errorText,
          ...(dynamic ? {} : { rawInput: part.rawInput }),
        }
      : { state: "output-available" as const, output: chunk.output, preliminary: chunk.preliminary };
  const { toolCallId, providerExecuted, providerMetadata } = chunk;
  updateToolPart(
    parts,
    {
      toolCallId,
      toolName: dynamic ? (part.toolName as string) : staticToolName(part),
      input: part.input,
      ...outcome,
      providerExecuted,
      providerMetadata,
      title: part.title as string | undefined,
      toolMetadata: chunk.toolMetadata ?? part.toolMetadata,
    },
    dynamic,
    part,
  );
  return "write";
}
