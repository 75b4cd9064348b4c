// Glue between the reply loop and the injection rules: before each step, scan what the model will see, count the
// open tasks, and produce the hint (if any) as a data-hint chunk.
import { generateId } from "ai";
import { decideInjection } from "../agent/hints/decide-injection.ts";
import { scanContext } from "../agent/hints/scan-context.ts";
import type { BeforeStepResult, StepContext } from "../agent/reply-loop.ts";
import type { Settings } from "../agent/settings.ts";
import type { ChatMessage, HintData, Task } from "../chat-message.ts";

export type HintStepOptions = {
  settings: Settings;
  /** The stored messages in the model context before this reply (changes when the context is compressed). */
  history: () => readonly ChatMessage[];
  contextWindow: number;
  /** Input size of the reply's first call (before any hint). */
  firstCallInputTokens: number;
  /** Whether the person changed the task list since the agent last heard of it (asked before every step). */
  tasksEditedByPerson: (stepIndex: number) => Promise<boolean> | boolean;
  /** The conversation's tasks before the step. */
  tasks: (stepIndex: number) => Promise<Task[]>;
  now?: () => Date;
  /** Called when a hint told the agent about the person's task edit. */
  onTasksAnnounced?: () => Promise<void> | void;
};

export function createHintStep(options: HintStepOptions) {
  const { settings, history } = options;
  const config = settings.injection;
  const now = options.now ?? (() => new Date());

  return async ({ stepIndex, reply }: StepContext): Promise<BeforeStepResult | undefined> => {
    if (!config.injectRuntimeState) return undefined;
    const tasksEditedByPerson = await options.tasksEditedByPerson(stepIndex);
    const tasks = await options.tasks(stepIndex);
    const counts = {
      pending: tasks.filter((t) => t.status === "pending").length,
      inProgress: tasks.filter((t) => t.status === "in_progress").length,
    };
    const scan = scanContext(
      history(),
      { source: config.injectionSource, taskToolNames: config.taskToolNames, openTasks: counts.pending + counts.inProgress > 0 },
      reply,
    );
    const at = now();
    const injection = decideInjection({
      config,
      now: at,
      scan,
      tasks: counts,
      tasksEditedByPerson,
      isFirstCall: stepIndex === 0,
      context: {
        inputTokens: options.firstCallInputTokens,
        contextWindow: options.contextWindow,
        triggerRatio: settings.context.triggerRatio,
      },
    });
    if (!injection) return undefined;
    if (injection.fields.tasks && tasksEditedByPerson) await options.onTasksAnnounced?.();
    const data: HintData = { source: config.injectionSource, fields: injection.fields, text: injection.text, createdAt: at.toISOString() };
    const chunk = { type: "data-hint" as const, id: generateId(), data };
    return config.emitHintEvent ? { chunks: [chunk] } : { quiet: [chunk] };
  };
}
