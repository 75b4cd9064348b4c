// What the next model call of a conversation would receive, for the inspector and GET /api/conversations/:id/context:
// the assembled system prompt (section by section), every message as the model gets it (hints included, or
// previewed without), the tool names, and the usage figures.
import type { ModelMessage } from "ai";
import { countModelMessageTokens } from "../agent/context-usage.ts";
import { cachedPriceRatio, type StrategyDecision } from "../agent/injection-strategy.ts";
import { resolveSettings, type Settings } from "../agent/settings.ts";
import { toModelMessages } from "../agent/to-model-messages.ts";
import { belowCacheFloor } from "../ai/model-families.ts";
import { callCost, priceFor } from "../ai/prices.ts";
import { modelInfoFor } from "../ai/providers/choice.ts";
import { ApiError } from "../api/errors.ts";
import type { CallUsage, ChatMessage } from "../chat-message.ts";
import { getConversation } from "../db/conversations.ts";
import { listMessages } from "../db/messages.ts";
import { descendantIds, getChild } from "../db/subagents.ts";
import { parseAgentState } from "./agent-state.ts";
import { cacheFigures } from "./cache-accounting.ts";
import { summaryModelMessages, tailStart } from "./compression.ts";
import { conversationMcpToolTokens } from "./mcp-tool-tokens.ts";
import { measureContext } from "./context-measure.ts";
import { convertOptionsFor } from "./model-messages.ts";
import { precountTokens } from "./context-usage.ts";
import { conversationFixedPart, fixedOf } from "./fixed-part.ts";
import { stateSourcesView } from "./state-view.ts";
import { pendingWorkspaceChanges } from "./workspace-view.ts";
import { mapYielding } from "./yielding.ts";

const figure = (n: unknown): number | null => (Number.isSafeInteger(n) && (n as number) >= 0 ? (n as number) : null);

/** Every model call of the conversation, numbered from 1, with its figures and estimated cost (when priced). */
function callList(history: readonly ChatMessage[]) {
  const calls = [];
  for (const message of history) {
    const usage = message.role === "assistant" ? message.metadata?.usage : undefined;
    if (!Array.isArray(usage)) continue;
    const model = message.metadata?.model ?? "";
    const price = priceFor(model);
    for (const call of usage as CallUsage[]) {
      const figures = {
        inputTokens: figure(call?.inputTokens),
        cachedInputTokens: figure(call?.cachedInputTokens),
        outputTokens: figure(call?.outputTokens),
      };
      const written = figure(call?.cacheWriteTokens);
      const cost =
        price && figures.inputTokens !== null
          ? callCost(
              {
                inputTokens: figures.inputTokens,
                cachedInputTokens: figures.cachedInputTokens ?? 0,
                cacheWriteTokens: written ?? 0,
                outputTokens: figures.outputTokens ?? 0,
              },
              price,
            )
          : null;
      // Cache writes only where the provider reports them (Anthropic, OpenAI from GPT-5.6).
      if (written !== null) Object.assign(figures, { cacheWriteTokens: written });
      // A zero read under the model's minimum cacheable prompt is said so (it is not a break).
      const floor =
        figures.inputTokens === null
          ? undefined
          : belowCacheFloor(model, {
              inputTokens: figures.inputTokens,
              cachedInputTokens: figures.cachedInputTokens ?? 0,
            });
      if (floor !== undefined) Object.assign(figures, { cacheReason: "below-cache-floor", minCacheTokens: floor });
      calls.push({ call: calls.length + 1, messageId: message.id, model, ...figures, cost });
    }
  }
  return calls;
}

/**
 * The model calls of the conversation's subagents (grandchildren too, each on its own), for the inspector to roll
 * their cost into the parent's (components/inspector/cost-rollup.ts). Read when the inspector opens, not per step.
 */
async function subagentCalls(id: string) {
  const rows = [];
  for (const childId of await descendantIds({ id })) {
    const child = await getChild({ id: childId });
    if (!child) continue;
    const calls = callList(await listMessages({ conversationId: childId })).map(
      ({ inputTokens, cachedInputTokens, outputTokens, cost, model }) => ({
        inputTokens,
        cachedInputTokens,
        outputTokens,
        cost,
        model,
      }),
    );
    rows.push({
      agentKey: child.agentKey,
      agentId: child.run.agentId,
      ...(child.run.label ? { label: child.run.label } : {}),
      conversationId: child.id,
      status: child.status,
      depth: child.parentId === id ? 1 : 2,
      calls,
    });
  }
  return rows;
}

/** The injection strategy as configured now, and what the last model call chose and why (with the figures it used). */
function strategyView(settings: Settings, decision: StrategyDecision | undefined, modelId: string): StrategyDecision {
  const configured = settings.injection.strategy;
  if (!decision) {
    const alpha = cachedPriceRatio(priceFor(modelId));
    const none = { S: 0, h: 0, p: 0, M: 0, appendCost: 0, replaceCost: 0 };
    return {
      configured,
      chosen: configured === "replace" ? "replace" : "append",
      reason: "no model call yet",
      ...none,
      alpha,
      alphaFrom: "prices",
    };
  }
  const reason =
    decision.configured === configured
      ? decision.reason
      : `${decision.reason} (the last call was made under "${decision.configured}")`;
  return { ...decision, configured, reason };
}

const withoutHints = (messages: ChatMessage[]): ChatMessage[] =>
  messages.map((m) => ({ ...m, parts: m.parts.filter((p) => p.type !== "data-hint") }));

export async function getContextView(id: string, { hints = true }: { hints?: boolean } = {}) {
  const conversation = await getConversation({ id });
  if (!conversation) throw new ApiError("not_found", `Conversation ${id} does not exist.`);
  const settings = resolveSettings(conversation.settings);
  const [fixed, pendingWorkspace] = await Promise.all([
    conversationFixedPart(id, settings, conversation.model),
    pendingWorkspaceChanges(id),
  ]);
  const { prompt } = fixed;
  const state = parseAgentState(conversation.agentState);
  const [history, mcpTools] = await Promise.all([listMessages({ conversationId: id }), conversationMcpToolTokens(id)]);
  const tail = history.slice(tailStart(history, state.compression));
  const messages: ModelMessage[] = [
    ...summaryModelMessages(state.compression),
    ...toModelMessages(hints ? tail : withoutHints(tail), convertOptionsFor(settings)),
  ];
  await precountTokens(history);
  const messageTokens = await mapYielding(messages, (m) => countModelMessageTokens([m]));
  // The figure of the next input as it is (with its hints), also when previewing it without them.
  const usage = measureContext({
    settings,
    history,
    compression: state.compression,
    ...fixedOf(fixed),
    model: conversation.model,
    mcpTools,
  });
  return {
    system: prompt.text,
    sections: prompt.sections.map(({ id: sectionId, title, origin, tokens, text }) => ({
      id: sectionId,
      title,
      origin,
      tokens,
      text,
    })),
    messages,
    messageTokens,
    tools: fixed.tools.names,
    /** The fixed part (system prompt and built-in tools): how the tools are described, and its tokens. */
    fixed: { tokens: fixed.tokens, toolStyle: fixed.tools.style, toolTokens: fixed.tools.tokens },
    summary: state.compression?.summary ?? null,
    usage,
    cache: { ...cacheFigures(history), breaks: state.cacheBreaks ?? [], calls: callList(history) },
    subagents: await subagentCalls(id),
    strategy: strategyView(settings, state.strategyDecision, modelInfoFor(conversation.model).id),
    /** Workspace changes the system prompt does not hold yet (the agent was told them as hints). */
    workspace: { workspaceId: conversation.workspaceId, pending: pendingWorkspace },
    /** The workspace's state sources and what the next call would be told of them. */
    state: await stateSourcesView(conversation.workspaceId, tail, settings, usage.contextWindow),
  };
}
