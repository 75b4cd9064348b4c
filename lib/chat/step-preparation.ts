// Before every model call of a reply: first compression is checked (the reply's first call was handled when the
// context was prepared; later calls compress when the last step's input and output, plus the tool results added
// since, reached the trigger), then the injection decides on a hint. Both land in the reply at the step they
// preceded.
import type { LanguageModel } from "ai";
import { shouldCompress } from "../agent/compression.ts";
import { countModelMessageTokens } from "../agent/context-usage.ts";
import type { BeforeStepResult, StepContext } from "../agent/reply-loop.ts";
import type { Settings } from "../agent/settings.ts";
import { toModelMessages } from "../agent/to-model-messages.ts";
import type { ChatMessage, Task } from "../chat-message.ts";
import { listTasks } from "../db/tasks.ts";
import { type AgentState, patchAgentState } from "./agent-state.ts";
import { type CompressionState, compressContext, summaryModelMessages, tailStart } from "./compression.ts";
import { modelMessagesOf } from "./model-messages.ts";
import { modeHintChunk, readConversationState } from "./plan.ts";
import type { ConversationMode } from "../agent/plan-mode.ts";
import type { PreparedContext } from "./prepare-context.ts";
import { createHintStep } from "./runtime-hints.ts";

export function createStepPreparation({
  conversationId,
  model,
  settings,
  contextWindow,
  history,
  context,
  agentState,
  mode: modeAtStart,
  tasksAtStart,
}: {
  conversationId: string;
  model: LanguageModel;
  settings: Settings;
  contextWindow: number;
  history: ChatMessage[];
  context: PreparedContext;
  agentState: AgentState;
  /** The conversation's mode as the reply started. */
  mode: ConversationMode;
  /** The task list as the reply started. */
  tasksAtStart: Task[];
}) {
  let compression: CompressionState | undefined = context.compression;
  let tail = context.tail;
  /** The last call's input plus its output, as the provider reported them (or as estimated when it did not). */
  let lastStepTokens = context.usage.inputTokens;
  let reported = false;
  let edited = false;
  const hintStep = createHintStep({
    settings,
    history: () => tail,
    contextWindow,
    firstCallInputTokens: context.usage.inputTokens,
    tasksEditedByPerson: () => edited,
    tasks: async (stepIndex) => (stepIndex === 0 ? tasksAtStart : listTasks({ conversationId })),
  });

  const beforeStep = async (step: StepContext): Promise<BeforeStepResult | undefined> => {
    const result: BeforeStepResult = {};
    // The first step uses the state this request read; later steps read it again (the person may edit meanwhile).
    const state = step.stepIndex === 0 ? { agentState, mode: modeAtStart } : await readConversationState(conversationId);
    edited = state.agentState.tasksEditedByPerson === true;
    let justCompressed = step.stepIndex === 0 && !!context.prelude?.some((c) => c.type === "data-compression");
    if (step.stepIndex > 0) {
      // What the last step added that its reported figures do not cover: tool results (and its output, unreported).
      const inputTokens = lastStepTokens + tokensOfLastStep(step.reply, reported);
      if (!reported) lastStepTokens = inputTokens;
      reported = false;
      if (shouldCompress(inputTokens, settings.context.triggerRatio, contextWindow)) {
        const compressed = await compressContext({ conversationId, model, settings, contextWindow, history, state: compression, tokensBefore: inputTokens });
        if (compressed) {
          compression = compressed.state;
          tail = history.slice(tailStart(history, compression));
          result.history = summaryModelMessages(compression).concat(modelMessagesOf(tail));
          result.chunks = [{ type: "data-compression", id: `compression-${compressed.data.createdAt}`, data: compressed.data }];
          lastStepTokens = compressed.data.tokensAfter;
        }
        justCompressed = !!result.history;
      }
    }
    // A switch of mode is announced once, on the next step, before the runtime hint.
    const modeHint = await modeHintChunk({ conversationId, mode: state.mode, agentState: state.agentState, compressed: justCompressed });
    if (modeHint) result.chunks = [...(result.chunks ?? []), modeHint];
    const hint = await hintStep(step);
    if (hint?.chunks) result.chunks = [...(result.chunks ?? []), ...hint.chunks];
    if (hint?.quiet) result.quiet = hint.quiet;
    // The person's edit is news for this step only, whether or not it called for a hint (no open tasks, hints off).
    const patch: Partial<AgentState> = {};
    if (edited) patch.tasksEditedByPerson = false;
    if (modeHint) patch.toldMode = state.mode;
    if (Object.keys(patch).length) await patchAgentState(conversationId, patch);
    return result;
  };

  return {
    beforeStep,
    /** The model context's compression as it stands now (a later step may have compressed it). */
    compression: () => compression,
    recordStep: (inputTokens: number, outputTokens: number) => {
      lastStepTokens = inputTokens + outputTokens;
      reported = true;
    },
  };
}

/**
 * Tokens of the reply's last step that the next call sends on top of the last call's reported input and output: the
 * tool results (and hints) after its step start, or everything after it when the provider reported nothing. Only
 * the last step's parts are converted and counted, never the history.
 */
export function tokensOfLastStep(reply: ChatMessage, outputReported: boolean): number {
  const start = reply.parts.findLastIndex((p) => p.type === "step-start");
  if (start < 0) return 0;
  const added = toModelMessages([{ ...reply, parts: reply.parts.slice(start + 1) }]);
  return countModelMessageTokens(outputReported ? added.filter((m) => m.role !== "assistant") : added);
}
