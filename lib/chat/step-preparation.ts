// Before every model call of a reply: first compression is checked (the reply's first call was handled when the
// context was prepared; later calls compress when the last step's input and output reached the trigger), then the
// injection decides on a hint. Both land in the reply at the step they preceded.
import type { LanguageModel } from "ai";
import { shouldCompress } from "../agent/compression.ts";
import type { BeforeStepResult, StepContext } from "../agent/reply-loop.ts";
import type { Settings } from "../agent/settings.ts";
import type { ChatMessage, Task } from "../chat-message.ts";
import { listTasks } from "../db/tasks.ts";
import { type AgentState, patchAgentState, readAgentState } from "./agent-state.ts";
import { type CompressionState, compressContext, summaryModelMessages, tailStart } from "./compression.ts";
import { modelMessagesOf } from "./model-messages.ts";
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
  tasksAtStart,
}: {
  conversationId: string;
  model: LanguageModel;
  settings: Settings;
  contextWindow: number;
  history: ChatMessage[];
  context: PreparedContext;
  agentState: AgentState;
  /** The task list as the reply started. */
  tasksAtStart: Task[];
}) {
  let compression: CompressionState | undefined = context.compression;
  let tail = context.tail;
  /** The input the next call sends at least: the last step's input plus its output. */
  let lastStepTokens = 0;
  const hintStep = createHintStep({
    settings,
    history: () => tail,
    contextWindow,
    firstCallInputTokens: context.usage.inputTokens,
    // The first step uses the state this request read; later steps read it again (the person may edit meanwhile).
    tasksEditedByPerson: async (stepIndex) =>
      (stepIndex === 0 ? agentState : await readAgentState(conversationId)).tasksEditedByPerson === true,
    tasks: async (stepIndex) => (stepIndex === 0 ? tasksAtStart : listTasks({ conversationId })),
    onTasksAnnounced: () => patchAgentState(conversationId, { tasksEditedByPerson: false }),
  });

  const beforeStep = async (step: StepContext): Promise<BeforeStepResult | undefined> => {
    const result: BeforeStepResult = {};
    if (step.stepIndex > 0 && shouldCompress(lastStepTokens, settings.context.triggerRatio, contextWindow)) {
      const compressed = await compressContext({ conversationId, model, settings, contextWindow, history, state: compression, tokensBefore: lastStepTokens });
      if (compressed) {
        compression = compressed.state;
        tail = history.slice(tailStart(history, compression));
        result.history = summaryModelMessages(compression).concat(modelMessagesOf(tail));
        result.chunks = [{ type: "data-compression", id: `compression-${compressed.data.createdAt}`, data: compressed.data }];
      }
    }
    const hint = await hintStep(step);
    if (hint?.chunks) result.chunks = [...(result.chunks ?? []), ...hint.chunks];
    if (hint?.quiet) result.quiet = hint.quiet;
    return result;
  };

  return {
    beforeStep,
    recordStep: (inputTokens: number, outputTokens: number) => {
      lastStepTokens = inputTokens + outputTokens;
    },
  };
}
