// The reply loop: one streamText call per reasoning step, driven by hand so that the harness decides what goes into
// every call (hints are appended between steps at a deterministic position) and every chunk is folded into the
// assistant message that gets persisted.
import { type LanguageModel, type ModelMessage, streamText, type ToolSet, toUIMessageChunk } from "ai";
import type { ChatChunk, ChatMessage } from "../chat-message.ts";
import { AssistantMessageBuilder } from "./assistant-message-builder.ts";
import { describeError } from "./describe-error.ts";
import { toModelMessages } from "./to-model-messages.ts";

export type StepContext = {
  /** 0 for the first model call of the reply. */
  stepIndex: number;
  /** The messages the step is about to send, before anything `beforeStep` adds. */
  messages: ModelMessage[];
  /** The reply so far. */
  reply: ChatMessage;
};

export type BeforeStepResult = {
  /** Added to the reply before the step and sent to the client. */
  chunks?: ChatChunk[];
  /** Added to the reply before the step but not streamed (persisted only). */
  quiet?: ChatChunk[];
  /** Replaces the conversation before the reply from this step on (after a compression). */
  history?: ModelMessage[];
};

export type StepUsage = { inputTokens?: number; outputTokens?: number };

export type ReplyOptions = {
  model: LanguageModel;
  /** The system prompt, assembled again before every model call (so an edit applies on the next one). */
  instructions: string | (() => string | Promise<string>);
  /** The conversation before this reply, as model messages. */
  history: ModelMessage[];
  replyId: string;
  tools?: ToolSet;
  maxSteps?: number;
  maxRetries?: number;
  /** Give up on a provider that sends nothing for this long (first chunk, and between chunks). */
  idleTimeoutMs?: number;
  abortSignal?: AbortSignal;
  /** Chunks that open the reply before its first step (e.g. a compression record). */
  prelude?: ChatChunk[];
  /** Receives every chunk for the client, in order. */
  emit: (chunk: ChatChunk) => void;
  /** Called before every model call; what it returns (a compression, a hint) goes into the reply before the step. */
  beforeStep?: (context: StepContext) => Promise<BeforeStepResult | undefined> | BeforeStepResult | undefined;
  onStepEnd?: (event: { stepIndex: number; usage: StepUsage; reply: ChatMessage }) => Promise<void> | void;
};

export type ReplyOutcome = {
  reply: ChatMessage;
  status: "complete" | "incomplete" | "error";
  error?: string;
  steps: number;
};

export async function runReply(options: ReplyOptions): Promise<ReplyOutcome> {
  const { model, instructions, history, tools, emit, abortSignal } = options;
  const maxSteps = options.maxSteps ?? 8;
  const builder = new AssistantMessageBuilder(options.replyId);
  const send = (chunk: ChatChunk) => {
    builder.apply(chunk);
    emit(chunk);
  };

  for (const chunk of options.prelude ?? []) send(chunk);
  let base = history;
  for (let stepIndex = 0; stepIndex < maxSteps; stepIndex++) {
    if (abortSignal?.aborted) return { reply: builder.snapshot(), status: "incomplete", error: "Stopped.", steps: stepIndex };
    const stepMessages = [...base, ...toModelMessages([builder.message])];
    const extra = await options.beforeStep?.({ stepIndex, messages: stepMessages, reply: builder.message });
    for (const chunk of extra?.chunks ?? []) send(chunk);
    for (const chunk of extra?.quiet ?? []) builder.apply(chunk);
    if (extra?.history) base = extra.history;
    const changed = extra?.history || extra?.chunks?.length || extra?.quiet?.length;
    const messages = changed ? [...base, ...toModelMessages([builder.message])] : stepMessages;

    let error: string | undefined;
    let finishReason: string | undefined;
    let usage: StepUsage = {};
    // A watchdog aborts the call when the provider sends nothing for idleTimeoutMs (also before any response).
    const watchdog = new AbortController();
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(idleTimer);
      if (options.idleTimeoutMs) idleTimer = setTimeout(() => watchdog.abort(), options.idleTimeoutMs);
    };
    arm();
    const callSignal = abortSignal ? AbortSignal.any([abortSignal, watchdog.signal]) : watchdog.signal;
    const result = streamText({
      model,
      instructions: typeof instructions === "function" ? await instructions() : instructions,
      messages,
      tools,
      abortSignal: callSignal,
      maxRetries: options.maxRetries ?? 2,
      // Failures arrive as stream parts and are reported to the person; no console noise per failure.
      onError: () => {},
    });
    try {
      for await (const part of result.stream) {
        arm();
        if (part.type === "error") {
          error = describeError(part.error);
          continue;
        }
        if (part.type === "abort") continue;
        if (part.type === "finish-step") {
          finishReason = part.finishReason;
          usage = { inputTokens: part.usage.inputTokens, outputTokens: part.usage.outputTokens };
        }
        const chunkOptions = { sendStart: false, sendFinish: false, sendReasoning: true, tools };
        const chunk = toUIMessageChunk(part, chunkOptions) as ChatChunk | undefined;
        if (chunk) send(chunk);
      }
    } catch (thrown) {
      if (!abortSignal?.aborted) error = describeError(thrown);
    } finally {
      clearTimeout(idleTimer);
    }
    if (watchdog.signal.aborted && !abortSignal?.aborted) {
      error = `The model provider did not answer in time (nothing for ${Math.round((options.idleTimeoutMs ?? 0) / 1000)} s). Try again.`;
    }
    if (abortSignal?.aborted) return { reply: builder.snapshot(), status: "incomplete", error: "Stopped.", steps: stepIndex + 1 };
    if (error) {
      emit({ type: "error", errorText: error });
      return { reply: builder.snapshot(), status: "error", error, steps: stepIndex + 1 };
    }
    await options.onStepEnd?.({ stepIndex, usage, reply: builder.message });
    if (finishReason !== "tool-calls") return { reply: builder.snapshot(), status: "complete", steps: stepIndex + 1 };
  }
  return { reply: builder.snapshot(), status: "complete", steps: maxSteps };
}
