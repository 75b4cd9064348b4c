// Orchestrates one chat turn: persist the person's message first, then stream the reply while folding it into the
// stored assistant message, so a failing or vanishing provider never loses anything.
import { createUIMessageStream, createUIMessageStreamResponse, generateId } from "ai";
import type { LastCallUsage } from "../agent/context-usage.ts";
import { describeError } from "../agent/describe-error.ts";
import { runReply } from "../agent/reply-loop.ts";
import { isValidTimeZone, resolveSettings } from "../agent/settings.ts";
import { currentModel } from "../ai/providers.ts";
import { createTools } from "../ai/tools/index.ts";
import { createCallCounter } from "../ai/tools/task-tool-context.ts";
import { ApiError } from "../api/errors.ts";
import { envNumber } from "../env-number.ts";
import type { ChatChunk, ChatMessage } from "../chat-message.ts";
import { DEFAULT_TITLE, titleFrom } from "../conversation-title.ts";
import { ensureConversation, getConversation, updateConversation } from "../db/conversations.ts";
import {
  appendMessage,
  deleteMessagesAfter,
  findMessagePosition,
  listMessages,
  settleStaleReplies,
  updateMessage,
} from "../db/messages.ts";
import { listTasks } from "../db/tasks.ts";
import { activeReplyIds, beginReply, endReply } from "./active-replies.ts";
import { parseAgentState, patchAgentState } from "./agent-state.ts";
import { prepareContext } from "./prepare-context.ts";
import { createStepPreparation } from "./step-preparation.ts";
import { systemPromptFor } from "./system-prompt.ts";

export type ChatRequest = {
  id: string;
  message: { id: string; role: "user"; parts: Array<{ type: "text"; text: string }> };
  timezone?: string;
};


/** Saves the person's message (or recognises a retry of it) and returns the conversation's messages. */
async function recordUserMessage(conversationId: string, message: ChatRequest["message"]): Promise<void> {
  const existing = await findMessagePosition({ conversationId, id: message.id });
  if (existing) {
    if (existing.role !== "user") throw new ApiError("conflict", `Message id ${message.id} is already used by a reply.`);
    // A retry: the reply (and anything after it) is generated again.
    await deleteMessagesAfter({ conversationId, position: existing.position });
    return;
  }
  const parts = message.parts.map((p) => ({ type: "text" as const, text: p.text }));
  await appendMessage({ conversationId, message: { id: message.id, role: "user", parts, metadata: {} } });
}

export async function startReply({ request, signal }: { request: ChatRequest; signal: AbortSignal }): Promise<Response> {
  const conversationId = request.id;
  const timezone = request.timezone && isValidTimeZone(request.timezone) ? request.timezone : undefined;
  const conversation = await ensureConversation({
    id: conversationId,
    settings: timezone ? { injection: { timezone } } : {},
  });
  const replyId = generateId();
  const controller = beginReply(conversationId, replyId);
  if (!controller) {
    throw new ApiError("conflict", "A reply is still being written in this conversation. Stop it or wait for it to finish.");
  }
  const { model, info } = currentModel();
  let history: ChatMessage[];
  try {
    await recordUserMessage(conversationId, request.message);
    if (conversation.title === DEFAULT_TITLE) {
      const text = request.message.parts.map((p) => p.text).join(" ");
      await updateConversation({ id: conversationId, title: titleFrom(text) });
    }
    await settleStaleReplies({ conversationId, activeIds: activeReplyIds(conversationId) });
    history = await listMessages({ conversationId });
    await appendMessage({
      conversationId,
      message: { id: replyId, role: "assistant", parts: [], metadata: { model: info.id } },
      status: "streaming",
    });
  } catch (error) {
    endReply(conversationId, replyId);
    throw error;
  }

  const onAbort = () => controller.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  const settings = resolveSettings(conversation.settings);
  const agentState = parseAgentState(conversation.agentState);
  const instructions = systemPromptFor(settings).text;
  // Rebuilt before every model call from the stored settings, so an edit made mid-reply applies on the next step.
  const currentInstructions = async () => {
    const fresh = await getConversation({ id: conversationId });
    return fresh ? systemPromptFor(resolveSettings(fresh.settings)).text : instructions;
  };
  const contextWindow = settings.context.contextWindow ?? info.contextWindow;
  let lastCall: LastCallUsage | undefined;

  const stream = createUIMessageStream<ChatMessage>({
    execute: async ({ writer }) => {
      writer.write({ type: "start", messageId: replyId, messageMetadata: { model: info.id } });
      const emit = (chunk: ChatChunk) => {
        try {
          writer.write(chunk);
        } catch {
          // The client went away; the reply is still folded and persisted.
        }
      };
      const context = await prepareContext({ conversationId, model, settings, contextWindow, system: instructions, history, agentState });
      emit({ type: "data-context-usage", id: "usage", data: context.usage, transient: true });
      const steps = createStepPreparation({ conversationId, model, settings, contextWindow, history, context });
      const tools = createTools({
        conversationId,
        nextCallNumber: createCallCounter(history),
        // The panel follows the agent's task edits live; the snapshot is transient (tasks live in the database).
        onTasksChanged: async () => {
          const tasks = await listTasks({ conversationId });
          try {
            writer.write({ type: "data-tasks", id: "tasks", data: tasks, transient: true });
          } catch {
            // The client went away; the tasks are stored anyway.
          }
        },
      });
      try {
        const outcome = await runReply({
          model,
          instructions: currentInstructions,
          tools,
          history: context.modelMessages,
          prelude: context.prelude,
          replyId,
          abortSignal: controller.signal,
          maxRetries: Math.floor(envNumber("HINTLINE_MAX_RETRIES", 2)),
          retryBaseMs: envNumber("HINTLINE_RETRY_BASE_MS", 1000),
          idleTimeoutMs: envNumber("HINTLINE_PROVIDER_TIMEOUT_MS", 60_000) || 60_000,
          emit,
          beforeStep: steps.beforeStep,
          // A crash (even SIGKILL) loses at most a second of the reply; the next load marks it incomplete.
          checkpoint: { everyMs: 1000, save: (reply) => updateMessage({ conversationId, id: replyId, parts: reply.parts }) },
          onStepEnd: async ({ reply, usage }) => {
            if (usage.inputTokens) {
              steps.recordStep(usage.inputTokens, usage.outputTokens ?? 0);
              lastCall = { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens ?? 0, messageCount: history.length + 1 };
              // The meter moves during the reply: the next call sends at least this step's input and output.
              emit({ type: "data-context-usage", id: "usage", data: { ...context.usage, inputTokens: usage.inputTokens + (usage.outputTokens ?? 0) }, transient: true });
            }
            await updateMessage({ conversationId, id: replyId, parts: reply.parts });
          },
        });
        if (lastCall) await patchAgentState(conversationId, { lastCall });
        const metadata = { model: info.id, ...(outcome.error ? { error: outcome.error } : {}) };
        await updateMessage({ conversationId, id: replyId, parts: outcome.reply.parts, metadata, status: outcome.status });
        writer.write({ type: "message-metadata", messageMetadata: { ...metadata, status: outcome.status } });
        writer.write({ type: "finish" });
      } catch (error) {
        await updateMessage({
          conversationId,
          id: replyId,
          metadata: { model: info.id, error: describeError(error) },
          status: "error",
        }).catch(() => {});
        throw error;
      } finally {
        signal.removeEventListener("abort", onAbort);
        endReply(conversationId, replyId);
      }
    },
    onError: describeError,
  });
  return createUIMessageStreamResponse({ stream });
}
