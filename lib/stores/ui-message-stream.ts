// The browser's reader of the AI SDK's UI message stream: applies each chunk (`UIMessageChunk`) to the assistant
// message it builds, exactly as `ai` 7's processUIMessageStream does (the wire format is the AI SDK's; the server is
// unchanged), so the chat page ships none of `ai`'s runtime (zod, the gateway, provider-utils: docs/architecture.md).
// lib/stores/ui-message-stream.test.ts feeds recorded and hand-made streams to both readers and compares the message
// after every chunk. Pure: no React, no I/O.
import type { UIMessage, UIMessageChunk } from "ai";
import {
  type ChunkEffect,
  currentStepParts,
  isStaticToolPart,
  isToolPart,
  type LoosePart,
  type PartialToolCall,
  type StreamingMessage,
  staticToolName,
  streamError,
} from "./ui-message-parts";
import { applyToolChunk } from "./ui-message-tools";

export type { ChunkEffect, StreamingMessage };

/** Maps keyed by ids from the stream: no prototype, so an id like "__proto__" finds nothing. */
const idMap = <T>(): Record<string, T> => Object.create(null);
const partsOf = (message: UIMessage) => message.parts as unknown as LoosePart[];

/**
 * The state a reply starts from: the given assistant message (a continued or resumed one; its unfinished tool inputs
 * carry on), or an empty one with `messageId`.
 */
export function streamingMessage<M extends UIMessage>(
  lastMessage: M | undefined,
  messageId: string,
): StreamingMessage<M> {
  const message =
    lastMessage?.role === "assistant"
      ? lastMessage
      : ({ id: messageId, metadata: undefined, role: "assistant", parts: [] } as unknown as M);
  const partialToolCalls = idMap<PartialToolCall>();
  let staticIndex = 0;
  for (const part of currentStepParts(partsOf(message))) {
    if (!isToolPart(part)) continue;
    const index = staticIndex;
    if (isStaticToolPart(part)) staticIndex++;
    if (part.state !== "input-streaming") continue;
    partialToolCalls[part.toolCallId as string] = {
      text: (part.rawInput as string | undefined) ?? "",
      inputEncoding: part.inputEncoding as PartialToolCall["inputEncoding"],
      index,
      toolName: part.type === "dynamic-tool" ? (part.toolName as string) : staticToolName(part),
      dynamic: part.type === "dynamic-tool",
      title: part.title as string | undefined,
      toolMetadata: part.toolMetadata,
    };
  }
  return { message, activeTextParts: idMap(), activeReasoningParts: idMap(), partialToolCalls };
}

const isMergeable = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === "object" &&
  !Array.isArray(value) &&
  !(value instanceof Date) &&
  !(value instanceof RegExp);

/** A deep merge of metadata: objects merge, everything else (arrays too) is replaced; undefined values are skipped. */
export function mergeObjects(
  base: Record<string, unknown>,
  overrides: Record<string, unknown>,
): Record<string, unknown> {
  const result = { ...base };
  for (const key in overrides) {
    if (key === "__proto__" || key === "constructor" || key === "prototype" || !Object.hasOwn(overrides, key)) continue;
    const value = overrides[key];
    if (value === undefined) continue;
    const baseValue = key in base ? base[key] : undefined;
    result[key] = isMergeable(value) && isMergeable(baseValue) ? mergeObjects(baseValue, value) : value;
  }
  return result;
}

export type ChunkReaderOptions = {
  /** A `start` with another message id begins a separate reply (a resume that found a newer one). */
  resetOnMessageIdChange?: boolean;
  /** The first `start` begins the reply again from nothing (a resume that replays the reply from its first chunk). */
  resetOnFirstStart?: boolean;
  /** Every data part, transient ones (never kept in the message) included. */
  onData?: (part: { type: string; id?: string; data: unknown; transient?: boolean }) => void;
  /** An `error` chunk (its text); the chat throws it, ending the reply with that error. */
  onError?: (error: Error) => void;
};

/** A reader of one reply's chunks into `state.message` (mutated in place, as the AI SDK's is). */
export class ChunkReader<M extends UIMessage> {
  private firstStart = true;

  constructor(
    public state: StreamingMessage<M>,
    private readonly options: ChunkReaderOptions = {},
  ) {}

  private mergeMetadata(metadata: unknown): void {
    if (metadata == null) return;
    const current = this.state.message.metadata;
    this.state.message.metadata = (
      current != null ? mergeObjects(current as Record<string, unknown>, metadata as Record<string, unknown>) : metadata
    ) as M["metadata"];
  }

  private start(chunk: Extract<UIMessageChunk, { type: "start" }>): ChunkEffect {
    const { state } = this;
    const reset =
      (this.options.resetOnFirstStart && this.firstStart) ||
      (this.options.resetOnMessageIdChange && chunk.messageId != null && chunk.messageId !== state.message.id);
    this.firstStart = false;
    if (reset) {
      // Rebuilt from nothing, keeping the state object (and the id when the chunk brings none).
      Object.assign(state, streamingMessage<M>(undefined, chunk.messageId ?? state.message.id), {
        finishReason: undefined,
      });
    }
    if (chunk.messageId != null) state.message.id = chunk.messageId;
    this.mergeMetadata(chunk.messageMetadata);
    return reset || chunk.messageId != null || chunk.messageMetadata != null ? "write-quietly" : "none";
  }

  apply(chunk: UIMessageChunk): ChunkEffect {
    const { state } = this;
    const parts = partsOf(state.message);
    switch (chunk.type) {
      case "text-start":
      case "reasoning-start": {
        const reasoning = chunk.type === "reasoning-start";
        const part: LoosePart = reasoning
          ? { type: "reasoning", id: chunk.id, text: "", providerMetadata: chunk.providerMetadata, state: "streaming" }
          : { type: "text", text: "", providerMetadata: chunk.providerMetadata, state: "streaming" };
        (reasoning ? state.activeReasoningParts : state.activeTextParts)[chunk.id] = part;
        parts.push(part);
        return "write";
      }
      case "text-delta":
      case "reasoning-delta": {
        const kind = chunk.type === "text-delta" ? "text" : "reasoning";
        const part = (kind === "text" ? state.activeTextParts : state.activeReasoningParts)[chunk.id];
        if (!part) throw missingStart(chunk.type, kind, chunk.id);
        part.text = (part.text as string) + chunk.delta;
        part.providerMetadata = chunk.providerMetadata ?? part.providerMetadata;
        return "write";
      }
      case "text-end": {
        const part = state.activeTextParts[chunk.id];
        if (!part) throw missingStart("text-end", "text", chunk.id);
        part.state = "done";
        if (chunk.citations != null) part.citations = chunk.citations;
        part.providerMetadata = chunk.providerMetadata ?? part.providerMetadata;
        delete state.activeTextParts[chunk.id];
        return "write";
      }
      case "reasoning-end": {
        const part = state.activeReasoningParts[chunk.id];
        if (!part) throw missingStart("reasoning-end", "reasoning", chunk.id);
        part.providerMetadata = chunk.providerMetadata ?? part.providerMetadata;
        part.state = "done";
        delete state.activeReasoningParts[chunk.id];
        return "write";
      }
      case "file":
      case "reasoning-file":
        parts.push({
          type: chunk.type,
          mediaType: chunk.mediaType,
          url: chunk.url,
          ...(chunk.providerMetadata != null ? { providerMetadata: chunk.providerMetadata } : {}),
        });
        return "write";
      case "source-url":
        parts.push({
          type: chunk.type,
          sourceId: chunk.sourceId,
          url: chunk.url,
          title: chunk.title,
          providerMetadata: chunk.providerMetadata,
        });
        return "write";
      case "source-document":
        parts.push({
          type: chunk.type,
          sourceId: chunk.sourceId,
          mediaType: chunk.mediaType,
          title: chunk.title,
          filename: chunk.filename,
          providerMetadata: chunk.providerMetadata,
        });
        return "write";
      case "start-step":
        parts.push({ type: "step-start" });
        return "none";
      case "finish-step":
        // Active parts end with their own end chunks (a merged stream's step can end while another's part is open).
        return "none";
      case "reset-step": {
        const step = currentStepParts(parts);
        state.activeTextParts = idMap();
        state.activeReasoningParts = idMap();
        state.partialToolCalls = idMap();
        if (step.length === 0) return "none";
        parts.splice(parts.length - step.length, step.length);
        return "write";
      }
      case "start":
        return this.start(chunk);
      case "finish":
        if (chunk.finishReason != null) state.finishReason = chunk.finishReason;
        this.mergeMetadata(chunk.messageMetadata);
        return chunk.messageMetadata != null ? "write" : "none";
      case "message-metadata":
        this.mergeMetadata(chunk.messageMetadata);
        return chunk.messageMetadata != null ? "write" : "none";
      case "error":
        this.options.onError?.(new Error(chunk.errorText));
        return "none";
      default:
        return this.applyOther(chunk, parts);
    }
  }

  /** Tool, data, custom and steering chunks. */
  private applyOther(chunk: UIMessageChunk, parts: LoosePart[]): ChunkEffect {
    switch (chunk.type) {
      case "custom":
        parts.push({ type: "custom", kind: chunk.kind, providerMetadata: chunk.providerMetadata });
        return "write";
      case "steering-message":
        parts.push({ type: "steering-message", id: chunk.id, parts: chunk.parts });
        return "write";
      default:
        if (chunk.type.startsWith("tool-")) return applyToolChunk(this.state as StreamingMessage, chunk);
        return chunk.type.startsWith("data-") ? this.dataPart(chunk, parts) : "none";
    }
  }

  private dataPart(chunk: UIMessageChunk, parts: LoosePart[]): ChunkEffect {
    const data = chunk as unknown as LoosePart & { id?: string; data: unknown; transient?: boolean };
    // A transient part reaches onData only, never the message.
    if (data.transient) {
      this.options.onData?.(data);
      return "none";
    }
    const existing = data.id != null ? parts.find((p) => p.type === data.type && p.id === data.id) : undefined;
    if (existing) existing.data = data.data;
    else parts.push(data);
    this.options.onData?.(data);
    return "write";
  }
}

function missingStart(chunkType: string, kind: "text" | "reasoning", id: string): Error {
  const startType = `${kind}-start`;
  return streamError(
    `Received ${chunkType} for missing ${kind} part with ID "${id}". ` +
      `Ensure a "${startType}" chunk is sent before any "${chunkType}" chunks.`,
  );
}
