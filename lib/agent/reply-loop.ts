// The reply loop: one streamText call per reasoning step, driven by hand so that the harness decides what goes into
// every call (hints are appended between steps at a deterministic position) and every chunk is folded into the
// assistant message that gets persisted.
import {
  type Instructions,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  streamText,
  type ToolCallRepairFunction,
  ToolChoiceViolationError,
  type ToolSet,
  toUIMessageChunk,
} from "ai";
import type { ChatChunk, ChatMessage } from "../chat-message.ts";
import { AssistantMessageBuilder } from "./assistant-message-builder.ts";
import { describeError } from "./describe-error.ts";
import { wordsFor } from "../operator-words.ts";
import { isRetryableError, retryDelayMs, waitUnlessAborted } from "./provider-retry.ts";
import { DENIED_TEXT, HANDOVER_REASON } from "./resume-point.ts";
import { charLimitReason, cutChunk, streamedChars, tokenLimitReason, untrustedEnd } from "./reply-limits.ts";
import { type ConvertOptions, toModelMessages } from "./to-model-messages.ts";

/** A failure in the operator's words: a reply run without a reader to word it for (tests, tools). */
const operatorWordsOf = (message: string) => wordsFor(message, true);

export type StepContext = {
  /** 0 for the first model call of the reply. */
  stepIndex: number;
  /** The messages the step is about to send, before anything `beforeStep` adds. */
  messages: ModelMessage[];
  /** The reply so far. */
  reply: ChatMessage;
  /** The last model call the reply may make (maxSteps): it is made without tools, to answer with what it has. */
  last?: boolean;
};

export type BeforeStepResult = {
  /** Added to the reply before the step and sent to the client. */
  chunks?: ChatChunk[];
  /** Added to the reply before the step but not streamed (persisted only). */
  quiet?: ChatChunk[];
  /** Replaces the conversation before the reply from this step on (after a compression). */
  history?: ModelMessage[];
};

/** A call's figures; `inputTokens` counts all input, `cachedInputTokens` (read) and `cacheWriteTokens` included. */
export type StepUsage = {
  inputTokens?: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
  outputTokens?: number;
};

/** What one model call sends, as the provider's options may mark it (cache breakpoints). */
export type CallPrompt = { instructions: Instructions; messages: ModelMessage[] };

/** A model call that finished (its provider sent the step's end), with exactly what it was sent. */
export type ModelCallEvent = {
  stepIndex: number;
  instructions: string;
  messages: ModelMessage[];
  /** The history `messages` begins with: the same array from step to step until a compression replaces it. */
  history: ModelMessage[];
  usage: StepUsage;
  /** When the call was sent (by `now`, the loop's clock). */
  startedAt: Date;
};

export type ReplyOptions = {
  model: LanguageModel;
  /** The system prompt, assembled again before every model call (so an edit applies on the next one). */
  instructions: string | (() => string | Promise<string>);
  /** The conversation before this reply, as model messages. */
  history: ModelMessage[];
  /** The parts of the reply being continued (Continue): the model sees them, and the reply grows from them. */
  seed?: ChatMessage["parts"];
  replyId: string;
  tools?: ToolSet;
  /** Asked when a tool call's arguments do not parse (lets the tool itself report them, counted like any call). */
  repairToolCall?: ToolCallRepairFunction<ToolSet>;
  /**
   * Rewrites the error of a call no tool ran (an unknown tool name): what it returns reaches the model instead, so
   * such a call gets the detailed error (and counter) every tool error has rather than the SDK's own.
   */
  unrunToolError?: (call: { toolName: string; input: unknown; error: unknown }) => unknown;
  /** Model calls the reply may make; the last is made with tool choice "none" (default 20). */
  maxSteps?: number;
  /** Retries of a model call that failed retryably before streaming anything (HTTP 429/5xx, refused). */
  maxRetries?: number;
  /** Backoff base when the provider sends no retry-after header: base, 2×base, 4×base… */
  retryBaseMs?: number;
  /** Give up on a provider that sends nothing for this long (first chunk, and between chunks). */
  idleTimeoutMs?: number;
  /** Output tokens one model call may produce (sent to the provider). */
  maxOutputTokens?: number;
  /** A failure's words as the reader may read them (lib/operator-words.ts); default: the operator's. */
  errorWords?: (message: string) => string;
  /** The sampling temperature the person set (sent to the provider); absent: the provider's default. */
  temperature?: number;
  /** Sent with every model call (e.g. which attempt a regenerated reply is, for the demo model). */
  providerOptions?: Parameters<typeof streamText>[0]["providerOptions"];
  /** Characters the whole reply may stream (text, reasoning and tool arguments, over all its steps). */
  maxReplyChars?: number;
  abortSignal?: AbortSignal;
  /** How the reply's own messages are converted (timestamps), as the history was. */
  convert?: ConvertOptions;
  /** The clock that stamps tool results. */
  now?: () => Date;
  /** Chunks that open the reply before its first step (e.g. a compression record). */
  prelude?: ChatChunk[];
  /** Receives every chunk for the client, in order. */
  emit: (chunk: ChatChunk) => void;
  /**
   * Marks each model call's prompt for the provider (Anthropic's cache breakpoints, lib/agent/cache-breakpoints.ts);
   * what the other callbacks see stays unmarked.
   */
  markCall?: (instructions: string, messages: ModelMessage[]) => CallPrompt;
  /**
   * Whether a tool call waits for the person (the AI SDK's tool approval: the call becomes a tool part in state
   * `approval-requested` and is not run); undefined or "not-applicable" runs it.
   */
  toolApproval?: (call: {
    toolName: string;
    toolCallId: string;
    input: unknown;
  }) => Promise<"user-approval" | "not-applicable" | undefined> | "user-approval" | "not-applicable" | undefined;
  /**
   * Waits for the person's answers to the calls of a step that wait (stored, so any tab or instance may answer).
   * An approved call then runs (its result reaches the model as any tool's); a denied one gets `errorText` as its
   * tool error. Resolves early with what it has when the reply is stopped: then no call of the step runs, and each is
   * settled in the reply as denied with STOPPED_BEFORE_ANSWER (never left waiting).
   */
  awaitApprovals?: (pending: PendingApproval[]) => Promise<ApprovalAnswer[]>;
  /**
   * Runs an approved call (the loop runs it itself, after its model call; the AI SDK runs every other): a tracing span
   * of its own, when the server traces.
   */
  runApproved?: <T>(call: PendingApproval, run: () => Promise<T>) => Promise<T>;
  /** Called before every model call; what it returns (a compression, a hint) goes into the reply before the step. */
  beforeStep?: (context: StepContext) => Promise<BeforeStepResult | undefined> | BeforeStepResult | undefined;
  /** After every model call that finished, before its outcome is judged (also a call cut at its token limit). */
  onModelCall?: (event: ModelCallEvent) => Promise<void> | void;
  /** `final`: the reply ends with this step (no tool calls to answer). */
  onStepEnd?: (event: {
    stepIndex: number;
    usage: StepUsage;
    reply: ChatMessage;
    final: boolean;
  }) => Promise<void> | void;
  /**
   * Saves the reply while it streams, at most once per `everyMs`, so a crash loses at most that much. A call of a tool
   * that is not `readOnly` is saved before it runs (its intent) and again once it returns: a reply resumed after a
   * crash then knows which calls may have taken effect (lib/agent/resume-point.ts).
   */
  checkpoint?: {
    everyMs: number;
    save: (reply: ChatMessage) => Promise<void>;
    now?: () => number;
    onError?: (error: unknown) => void;
    readOnly?: (toolName: string) => boolean;
  };
};

/** Why a call that waited for the person was not run when its reply was stopped first (its part's approval.reason). */
export const STOPPED_BEFORE_ANSWER = "Not run: the reply was stopped before the person answered.";

/** A tool call of the reply that waits for the person's approval. */
export type PendingApproval = { toolCallId: string; approvalId: string; toolName: string; input: unknown };
export type ApprovalAnswer = { toolCallId: string; approved: boolean; reason?: string; errorText?: string };

export type ReplyOutcome = {
  reply: ChatMessage;
  status: "complete" | "incomplete" | "error";
  error?: string;
  steps: number;
  /** The reply made the most model calls it may (its last one without tools). */
  stepLimit?: number;
};

type CallResult = {
  /** Person-readable, when the call failed. */
  error?: string;
  rawError?: unknown;
  /** Whether anything besides the step opening reached the reply (a failed call that sent nothing can be retried). */
  sentContent: boolean;
  timedOut: boolean;
  /** The reply's character ceiling was reached: the call was ended there. */
  limitReached: boolean;
  finishReason?: string;
  usage: StepUsage;
  /** The response's content type, as the provider declared it. */
  contentType?: string;
};

type CallOptions = Pick<
  ReplyOptions,
  | "model"
  | "tools"
  | "repairToolCall"
  | "unrunToolError"
  | "abortSignal"
  | "idleTimeoutMs"
  | "maxOutputTokens"
  | "temperature"
  | "errorWords"
  | "providerOptions"
  | "markCall"
  | "toolApproval"
> & {
  instructions: string;
  messages: ModelMessage[];
  send: (chunk: ChatChunk) => void;
  /** Characters the reply may still stream. */
  budget: { chars: number };
  /** "none": the tools stay offered but none may be called (the reply's last call). */
  toolChoice?: "none";
};

/** The AI SDK's streaming call, with the reply loop's settings (its own retries, its own error reporting). */
function startStream(options: CallOptions, signal: AbortSignal) {
  const { model, tools, repairToolCall, maxOutputTokens, toolApproval } = options;
  const { instructions, messages } = options.markCall
    ? options.markCall(options.instructions, options.messages)
    : options;
  return streamText({
    model,
    instructions,
    messages,
    tools,
    ...(options.toolChoice ? { toolChoice: options.toolChoice } : {}),
    repairToolCall,
    ...(toolApproval
      ? {
          toolApproval: ({ toolCall }: { toolCall: { toolName: string; toolCallId: string; input: unknown } }) =>
            toolApproval(toolCall),
        }
      : {}),
    abortSignal: signal,
    maxOutputTokens,
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
    // Retries are the reply loop's, so that the person sees them.
    maxRetries: 0,
    // Failures arrive as stream parts and are reported to the person; no console noise per failure.
    onError: () => {},
  });
}

/** One model call, streamed into the reply. The step's opening chunk is held back until content follows it. */
async function streamCall(options: CallOptions): Promise<CallResult> {
  const { tools, unrunToolError, abortSignal, idleTimeoutMs, send, budget } = options;
  const errorWords = options.errorWords ?? operatorWordsOf;
  const out: CallResult = { sentContent: false, timedOut: false, limitReached: false, usage: {} };
  const watchdog = idleWatchdog(idleTimeoutMs);
  // Ends the call when the reply reaches its character ceiling.
  const limiter = new AbortController();
  const signal = AbortSignal.any([...(abortSignal ? [abortSignal] : []), watchdog.signal, limiter.signal]);
  const result = startStream(options, signal);
  let opening: ChatChunk | undefined;
  const chunkOptions = { sendStart: false, sendFinish: false, sendReasoning: true, tools };
  try {
    for await (let part of result.stream) {
      if (part.type === "tool-call" && !part.providerExecuted && tools && Object.hasOwn(tools, part.toolName))
        watchdog.running.add(part.toolCallId);
      if (part.type === "tool-result" || part.type === "tool-error") watchdog.running.delete(part.toolCallId);
      watchdog.arm();
      // A call of a tool that does not exist: the SDK answers it itself, with its own error.
      if (part.type === "tool-error" && unrunToolError && !(tools && Object.hasOwn(tools, part.toolName))) {
        part = { ...part, error: unrunToolError({ toolName: part.toolName, input: part.input, error: part.error }) };
      }
      if (part.type === "error") {
        out.error = errorWords(describeError(part.error));
        out.rawError = part.error;
        continue;
      }
      if (part.type === "abort") continue;
      if (part.type === "finish-step") {
        out.finishReason = part.finishReason;
        out.usage = usageOf(part.usage);
        out.contentType = part.response?.headers?.["content-type"];
      }
      let chunk = toUIMessageChunk(part, chunkOptions) as ChatChunk | undefined;
      if (!chunk) continue;
      const chars = streamedChars(chunk);
      if (chars > budget.chars) {
        out.limitReached = true;
        limiter.abort();
        chunk = cutChunk(chunk, budget.chars);
        budget.chars = 0;
        if (!chunk) break;
      } else {
        budget.chars -= chars;
      }
      if (chunk.type === "start-step") {
        opening = chunk;
      } else if (chunk.type !== "finish-step" || !out.error) {
        if (opening) send(opening);
        opening = undefined;
        out.sentContent = true;
        send(chunk);
      }
      if (out.limitReached) break;
    }
  } catch (thrown) {
    if (!abortSignal?.aborted && !out.limitReached) {
      out.error = errorWords(describeError(thrown));
      out.rawError = thrown;
    }
  } finally {
    watchdog.clear();
  }
  out.timedOut = watchdog.signal.aborted && !abortSignal?.aborted;
  return out;
}

/**
 * Aborts a call when the provider sends nothing for `idleTimeoutMs` (also before any response). While tools run the
 * provider has nothing to send: the watchdog waits for them (AgentSpawn may wait 600 s).
 */
function idleWatchdog(idleTimeoutMs: number | undefined) {
  const controller = new AbortController();
  const running = new Set<string>();
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(idleTimer);
    if (idleTimeoutMs && running.size === 0) idleTimer = setTimeout(() => controller.abort(), idleTimeoutMs);
  };
  arm();
  return { signal: controller.signal, running, arm, clear: () => clearTimeout(idleTimer) };
}

/** A finished step's token figures, as the provider reported them. */
function usageOf(usage: LanguageModelUsage): StepUsage {
  return {
    inputTokens: usage.inputTokens,
    cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens,
    cacheWriteTokens: usage.inputTokenDetails?.cacheWriteTokens,
    outputTokens: usage.outputTokens,
  };
}

/** Throttled, never-overlapping saves; `settled()` waits for the one in flight so a later save cannot be overtaken. */
function checkpointer(options: ReplyOptions["checkpoint"], builder: AssistantMessageBuilder) {
  const now = options?.now ?? Date.now;
  let last = now();
  let inFlight: Promise<void> | undefined;
  const save = (message: ChatMessage) => {
    if (!options) return Promise.resolve();
    last = now();
    const saving = options
      .save(message)
      // The next checkpoint or the final save writes it again; the failure is reported.
      .catch((error) => options.onError?.(error))
      .finally(() => {
        if (inFlight === saving) inFlight = undefined;
      });
    inFlight = saving;
    return saving;
  };
  return {
    tick() {
      if (!options || inFlight || now() - last < options.everyMs) return;
      void save(builder.snapshot());
    },
    /** Saves the reply now with the call as it stands (after any save in flight, so none overtakes it). */
    async call(part: { toolName: string; toolCallId: string; input: unknown; output?: unknown }) {
      if (!options) return;
      await inFlight;
      await save(withCall(builder.snapshot(), part));
    },
    settled: () => inFlight ?? Promise.resolve(),
  };
}

/** The reply with a tool call's part in the state the call has reached (started, or returned with `output`). */
function withCall(
  reply: ChatMessage,
  call: { toolName: string; toolCallId: string; input: unknown; output?: unknown },
): ChatMessage {
  const state = "output" in call ? "output-available" : "input-available";
  const { toolName: _name, ...fields } = call;
  const index = reply.parts.findIndex((p) => (p as { toolCallId?: string }).toolCallId === call.toolCallId);
  const part = { ...(index >= 0 ? reply.parts[index] : { type: `tool-${call.toolName}` }), ...fields, state };
  const parts = [...reply.parts];
  if (index >= 0) parts[index] = part as ChatMessage["parts"][number];
  else parts.push(part as ChatMessage["parts"][number]);
  return { ...reply, parts };
}

/**
 * The tools, those that are not read-only saving the reply before they run and once they return (what a resumed reply
 * needs to know that the call may have taken effect, or did).
 */
function withSavedCalls(
  tools: ToolSet | undefined,
  readOnly: ((toolName: string) => boolean) | undefined,
  checkpoint: ReturnType<typeof checkpointer>,
): ToolSet | undefined {
  if (!tools || !readOnly) return tools;
  return Object.fromEntries(
    Object.entries(tools).map(([toolName, tool]) => {
      const execute = tool.execute;
      if (!execute || readOnly(toolName)) return [toolName, tool];
      const saved: typeof execute = async (input, options) => {
        const { toolCallId } = options;
        await checkpoint.call({ toolName, toolCallId, input });
        const output = await execute(input, options);
        await checkpoint.call({ toolName, toolCallId, input, output });
        return output;
      };
      return [toolName, { ...tool, execute: saved }];
    }),
  );
}

export async function runReply(options: ReplyOptions): Promise<ReplyOutcome> {
  const builder = new AssistantMessageBuilder(options.replyId, {}, options.now);
  if (options.seed) builder.seed(options.seed);
  const checkpoint = checkpointer(options.checkpoint, builder);
  const tools = withSavedCalls(options.tools, options.checkpoint?.readOnly, checkpoint);
  try {
    return await replyLoop({ ...options, tools }, builder, checkpoint);
  } finally {
    await checkpoint.settled();
  }
}

async function replyLoop(
  options: ReplyOptions,
  builder: AssistantMessageBuilder,
  checkpoint: ReturnType<typeof checkpointer>,
): Promise<ReplyOutcome> {
  const { history, emit, abortSignal } = options;
  const maxSteps = Math.max(1, options.maxSteps ?? 20);
  const send = (chunk: ChatChunk) => {
    builder.apply(chunk);
    emit(chunk);
    checkpoint.tick();
  };
  // A stop that gives its reason as text (a server shutting down) is stored with it.
  const stopped = (steps: number): ReplyOutcome => ({
    reply: builder.snapshot(),
    status: "incomplete",
    error: typeof abortSignal?.reason === "string" ? abortSignal.reason : "Stopped.",
    steps,
  });

  for (const chunk of options.prelude ?? []) send(chunk);
  // A resumed reply may have stopped while calls waited for the person: it waits for them first.
  if (options.seed && !(await settleApprovals(options, builder, send, checkpoint))) return stopped(0);
  const budget = { chars: options.maxReplyChars ?? Number.POSITIVE_INFINITY };
  let base = history;
  for (let stepIndex = 0; stepIndex < maxSteps; stepIndex++) {
    if (abortSignal?.aborted) return stopped(stepIndex);
    const stepMessages = base.concat(toModelMessages([builder.message], options.convert));
    // The last call the reply may make answers with what it has: its tools stay offered (the cached prefix holds them),
    // none may be called.
    const last = stepIndex === maxSteps - 1;
    const extra = await options.beforeStep?.({ stepIndex, messages: stepMessages, reply: builder.message, last });
    for (const chunk of extra?.chunks ?? []) send(chunk);
    for (const chunk of extra?.quiet ?? []) builder.apply(chunk);
    if (extra?.history) base = extra.history;
    const changed = extra?.history || extra?.chunks?.length || extra?.quiet?.length;
    const messages = changed ? base.concat(toModelMessages([builder.message], options.convert)) : stepMessages;

    const { call, retries } = await callWithRetries(options, { stepIndex, messages, base, last, send, budget });
    if (abortSignal?.aborted) return stopped(stepIndex + 1);
    // A provider that ignores tool choice "none" on the last call: the SDK withholds the calls it made (they never
    // run nor show), and the reply ends at the limit in the words it wrote.
    if (last && ToolChoiceViolationError.isInstance(call.rawError)) {
      await checkpoint.settled();
      await options.onStepEnd?.({ stepIndex, usage: call.usage, reply: builder.message, final: true });
      return { reply: builder.snapshot(), status: "complete", steps: stepIndex + 1, stepLimit: maxSteps };
    }
    const failed = failedCall(options, call, retries);
    if (failed) {
      if (failed.status === "error") emit({ type: "error", errorText: failed.error });
      return { reply: builder.snapshot(), ...failed, steps: stepIndex + 1 };
    }
    await checkpoint.settled();
    if (call.finishReason === "length") {
      return {
        reply: builder.snapshot(),
        status: "incomplete",
        error: tokenLimitReason(options.maxOutputTokens),
        steps: stepIndex + 1,
      };
    }
    const final = call.finishReason !== "tool-calls" || last;
    await options.onStepEnd?.({ stepIndex, usage: call.usage, reply: builder.message, final });
    if (final)
      return {
        reply: builder.snapshot(),
        status: "complete",
        steps: stepIndex + 1,
        ...(last ? { stepLimit: maxSteps } : {}),
      };
    if (!(await settleApprovals(options, builder, send, checkpoint))) return stopped(stepIndex + 1);
  }
  return { reply: builder.snapshot(), status: "complete", steps: maxSteps, stepLimit: maxSteps };
}

/** One step's model call, retried after a retryable failure that sent nothing (each retry shown while it waits). */
async function callWithRetries(
  options: ReplyOptions,
  step: {
    stepIndex: number;
    messages: ModelMessage[];
    base: ModelMessage[];
    last: boolean;
    send: (chunk: ChatChunk) => void;
    budget: { chars: number };
  },
): Promise<{ call: CallResult; retries: number }> {
  const { stepIndex, messages, base, last, send, budget } = step;
  const { abortSignal } = options;
  const maxRetries = options.maxRetries ?? 2;
  let retries = 0;
  for (;;) {
    const instructions =
      typeof options.instructions === "function" ? await options.instructions() : options.instructions;
    const startedAt = options.now?.() ?? new Date();
    const call = await streamCall({
      ...options,
      instructions,
      messages,
      send,
      budget,
      ...(last ? { toolChoice: "none" as const } : {}),
    });
    if (call.finishReason !== undefined)
      await options.onModelCall?.({ stepIndex, instructions, messages, history: base, usage: call.usage, startedAt });
    if (!call.error || call.sentContent || call.timedOut || abortSignal?.aborted) return { call, retries };
    if (retries >= maxRetries || !isRetryableError(call.rawError)) return { call, retries };
    const delayMs = retryDelayMs(call.rawError, retries, options.retryBaseMs ?? 1000);
    retries++;
    // The reason without its "Try again…" advice: the notice says when the retry comes.
    const data = { attempt: retries, maxRetries, delayMs, reason: call.error.replace(/\s*Try again[^.]*\.$/, "") };
    // Streamed into the reply (one part per step, updated in place) but never stored: the builder does not see it.
    options.emit({ type: "data-retry", id: `retry-${stepIndex}`, data });
    await waitUnlessAborted(delayMs, abortSignal);
    if (abortSignal?.aborted) return { call, retries };
  }
}

/** How a call that cannot go on ends the reply: cut at the character limit, or an error (timed out, given up, …). */
function failedCall(
  options: ReplyOptions,
  call: CallResult,
  retries: number,
): { status: "incomplete" | "error"; error: string } | undefined {
  if (call.limitReached) return { status: "incomplete", error: charLimitReason(options.maxReplyChars ?? 0) };
  const untrusted = untrustedEnd(call.finishReason, call.contentType);
  let error = call.error ?? (untrusted && (options.errorWords ?? operatorWordsOf)(untrusted));
  if (call.timedOut) {
    error = `The model provider did not answer in time (nothing for ${Math.round((options.idleTimeoutMs ?? 0) / 1000)} s). Try again.`;
  } else if (error && retries > 0) {
    error = `${error} (Gave up after ${retries} ${retries === 1 ? "retry" : "retries"}.)`;
  }
  return error ? { status: "error", error } : undefined;
}

/**
 * Waits for the person's answers to the reply's calls that wait, then runs or denies them. False when the reply was
 * stopped meanwhile: then no call runs, and each is settled as denied with STOPPED_BEFORE_ANSWER (never left waiting).
 */
async function settleApprovals(
  options: ReplyOptions,
  builder: AssistantMessageBuilder,
  send: (chunk: ChatChunk) => void,
  checkpoint: ReturnType<typeof checkpointer>,
): Promise<boolean> {
  const pending = pendingApprovals(builder.message);
  if (!pending.length || !options.awaitApprovals) return true;
  const answers = await options.awaitApprovals(pending);
  if (options.abortSignal?.aborted) {
    // Handed over (a graceful restart): the calls keep waiting, for the resumed reply.
    if (options.abortSignal.reason === HANDOVER_REASON) return false;
    for (const call of pending) {
      send({
        type: "tool-approval-response",
        approvalId: call.approvalId,
        approved: false,
        reason: STOPPED_BEFORE_ANSWER,
      });
      send({ type: "tool-output-denied", toolCallId: call.toolCallId });
    }
    return false;
  }
  await answerApprovals(pending, answers, options, send);
  await checkpoint.settled();
  return true;
}

/** The reply's tool calls that wait for the person. */
function pendingApprovals(reply: ChatMessage): PendingApproval[] {
  const out: PendingApproval[] = [];
  for (const part of reply.parts) {
    const p = part as {
      type: string;
      state?: string;
      toolCallId?: string;
      input?: unknown;
      approval?: { id?: string };
    };
    if (!p.type.startsWith("tool-") || p.state !== "approval-requested" || !p.toolCallId || !p.approval?.id) continue;
    out.push({
      toolCallId: p.toolCallId,
      approvalId: p.approval.id,
      toolName: p.type.slice("tool-".length),
      input: p.input,
    });
  }
  return out;
}

/** The person's answers into the reply: an approved call runs now, a denied one gets its error; both as tool results. */
async function answerApprovals(
  pending: PendingApproval[],
  answers: ApprovalAnswer[],
  options: ReplyOptions,
  send: (chunk: ChatChunk) => void,
): Promise<void> {
  for (const call of pending) {
    const answer = answers.find((a) => a.toolCallId === call.toolCallId);
    if (!answer) continue;
    send({
      type: "tool-approval-response",
      approvalId: call.approvalId,
      approved: answer.approved,
      ...(answer.reason ? { reason: answer.reason } : {}),
    });
    if (!answer.approved) {
      send({
        type: "tool-output-error",
        toolCallId: call.toolCallId,
        errorText: answer.errorText ?? DENIED_TEXT,
      });
      continue;
    }
    const execute = options.tools?.[call.toolName]?.execute;
    try {
      if (!execute) throw new Error(`${call.toolName} cannot run here.`);
      const run = async () =>
        await execute(
          call.input as never,
          { toolCallId: call.toolCallId, messages: [], abortSignal: options.abortSignal } as never,
        );
      const output = await (options.runApproved ? options.runApproved(call, run) : run());
      send({ type: "tool-output-available", toolCallId: call.toolCallId, output });
    } catch (error) {
      send({
        type: "tool-output-error",
        toolCallId: call.toolCallId,
        errorText: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
