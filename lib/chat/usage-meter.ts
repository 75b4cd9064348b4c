// Every model call of a user counted towards their budget (accounts mode): the model a reply, a subagent, a title, a
// summary or a durable-facts proposal uses is wrapped (the AI SDK's language-model middleware) so that each call's
// tokens and dollars are added to the user's stored usage as the call ends, before its caller goes on. One place for
// every kind of call, so a new one cannot be forgotten.
import type { LanguageModelV4StreamPart, LanguageModelV4Usage } from "@ai-sdk/provider";
import { type LanguageModelMiddleware, wrapLanguageModel } from "ai";
import { callCost, priceFor } from "../ai/prices.ts";
import type { ResolvedModel } from "../ai/providers/index.ts";
import { authMode } from "../auth/mode.ts";
import type { CallUsage } from "../chat-message.ts";
import { now } from "../clock.ts";
import { addUsage } from "../db/usage.ts";
import { logFailure } from "../log/logger.ts";

/** More tokens than any model's window and output together: a figure above it is a provider's error, not spent. */
const MAX_CALL_TOKENS = 100_000_000;

const figure = (n: unknown): number =>
  typeof n === "number" && Number.isSafeInteger(n) && n >= 0 && n <= MAX_CALL_TOKENS ? n : 0;

/** A provider's usage report as Hintline's per-call figures (what is missing or implausible counts 0). */
export function callUsageOf(usage: LanguageModelV4Usage | undefined): Required<CallUsage> {
  const input = usage?.inputTokens;
  const total = figure(input?.total) || figure(input?.noCache) + figure(input?.cacheRead) + figure(input?.cacheWrite);
  return {
    inputTokens: total,
    cachedInputTokens: Math.min(figure(input?.cacheRead), total),
    cacheWriteTokens: Math.min(figure(input?.cacheWrite), total),
    outputTokens: figure(usage?.outputTokens?.total),
  };
}

function meter(userId: string, modelId: string): LanguageModelMiddleware {
  const record = async (usage: LanguageModelV4Usage | undefined) => {
    const call = callUsageOf(usage);
    const tokens = call.inputTokens + call.outputTokens;
    if (tokens === 0) return;
    const price = priceFor(modelId);
    const usd = (price && callCost(call, price)) || 0;
    await addUsage({ userId, at: now(), tokens, usd }).catch(
      logFailure("counting a model call towards its user's budget failed", { userId, model: modelId }),
    );
  };
  return {
    wrapGenerate: async ({ doGenerate }) => {
      const result = await doGenerate();
      await record(result.usage);
      return result;
    },
    wrapStream: async ({ doStream }) => {
      const result = await doStream();
      const counted = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
        async transform(part, controller) {
          // Stored before the caller sees the call end: the next message of the person is checked against it.
          if (part.type === "finish") await record(part.usage);
          controller.enqueue(part);
        },
      });
      return { ...result, stream: result.stream.pipeThrough(counted) };
    },
  };
}

/**
 * `resolved` with every call counted for `ownerId` (accounts mode); as it is for the one person of open and token
 * mode (no owner), where no budget applies.
 */
export function meteredModel(resolved: ResolvedModel, ownerId: string | null | undefined): ResolvedModel {
  if (!ownerId || authMode() !== "accounts" || typeof resolved.model === "string") return resolved;
  return {
    ...resolved,
    model: wrapLanguageModel({ model: resolved.model, middleware: meter(ownerId, resolved.info.id) }),
  };
}
