// Glue between the reply loop and the injection rules: before each step, scan what the model will see, count the
// open tasks, and produce the hint (if any) as a data-hint chunk.
import { generateId } from "ai";
import { decideInjection } from "../agent/hints/decide-injection.ts";
import { type ContextScan, scanContext } from "../agent/hints/scan-context.ts";
import { combineTold, NOTHING_TOLD, type Told, toldIn } from "../agent/hints/told.ts";
import type { BeforeStepResult, StepContext } from "../agent/reply-loop.ts";
import type { Settings } from "../agent/settings.ts";
import type { ChatMessage, HintData, HintSource, Task } from "../chat-message.ts";
import { historyTotals } from "./history-fold.ts";
import { now as clockNow } from "../clock.ts";

export type HintStepOptions = {
  settings: Settings;
  /** The stored messages in the model context before this reply (changes when the context is compressed). */
  history: () => readonly ChatMessage[];
  contextWindow: number;
  /** Input size of the reply's first call (before any hint). */
  firstCallInputTokens: number;
  /** Whether the person changed the task list since the agent last heard of it (asked before every step). */
  tasksEditedByPerson: (stepIndex: number) => Promise<boolean> | boolean;
  /** How many task edits the person made in the conversation so far (a hint with the task counts covers them). */
  taskEdits?: () => number;
  /** The conversation's tasks before the step. */
  tasks: (stepIndex: number) => Promise<Task[]>;
  now?: () => Date;
};

type ScanOptions = { source: HintSource; taskToolNames: readonly string[] };

/** The newer message's time hint wins; tasks seen anywhere count. */
const combine = (older: ContextScan, newer: ContextScan): ContextScan => ({
  lastTimeText: newer.lastTimeText ?? older.lastTimeText,
  tasksSeen: older.tasksSeen || newer.tasksSeen,
});
const NOTHING_SEEN: ContextScan = { tasksSeen: false };
const scanTotals = new Map<string, ReturnType<typeof historyTotals<ContextScan>>>();

/**
 * What the agent knows from a history: the same answer as scanning it newest to oldest, but kept per conversation
 * and extended turn by turn, so a task list last seen a thousand messages ago is not looked for again every step.
 */
function scanHistory(history: readonly ChatMessage[], options: ScanOptions): ContextScan {
  const key = JSON.stringify(options);
  let totals = scanTotals.get(key);
  if (!totals) {
    if (scanTotals.size >= 16) scanTotals.clear(); // options change only when the person edits them
    totals = historyTotals((m) => scanContext([m], { ...options, openTasks: true }), combine, NOTHING_SEEN);
    scanTotals.set(key, totals);
  }
  return totals(history)(history.length);
}

const toldTotals = new Map<string, ReturnType<typeof historyTotals<Told>>>();

/**
 * What the "told once" hints in the next call's input told the agent: the history it sends (kept per conversation
 * and extended turn by turn, like scanHistory) and the reply so far.
 */
export function toldSoFar(history: readonly ChatMessage[], reply: ChatMessage | undefined, runtimeSource: HintSource): Told {
  const key = JSON.stringify(runtimeSource);
  let totals = toldTotals.get(key);
  if (!totals) {
    if (toldTotals.size >= 16) toldTotals.clear();
    totals = historyTotals((m) => toldIn(m, runtimeSource), combineTold, NOTHING_TOLD);
    toldTotals.set(key, totals);
  }
  const told = totals(history)(history.length);
  return reply ? combineTold(told, toldIn(reply, runtimeSource)) : told;
}

/** Scans a conversation's model context ahead of its next reply (after an import). */
export function warmHintScan(history: readonly ChatMessage[], settings: Settings): void {
  const { injectionSource, taskToolNames } = settings.injection;
  scanHistory(history, { source: injectionSource, taskToolNames });
  toldSoFar(history, undefined, injectionSource);
}

/** What one call asks of the hint besides the rules: the replace strategy's full status, its input size, a pause. */
/** The runtime state a status told: its text, and the open task counts it was rendered from. */
export type StatusUpdate = { text: string; pending: number; inProgress: number };

export type HintCallOptions = {
  /** Render every built-in field (the replace strategy's status), marked as a status to be replaced. */
  full?: boolean;
  /**
   * Decide as if the agent knew exactly this status and nothing else (not what the context holds): whether the state
   * changed since it, by the same rules. The auto strategy's updates, free of which strategy sent what.
   */
  since?: StatusUpdate;
  /** The input size the call is about to send (for a full status's context-length, and after a compression). */
  inputTokens?: number;
  /** The context was just compressed: the call tells its new size. */
  compressed?: boolean;
  /** Timestamps on, first call of a reply: how long after the person's previous message this one came (ms). */
  sincePersonsPrevious?: number;
};

export function createHintStep(options: HintStepOptions) {
  const { settings, history } = options;
  const config = settings.injection;
  const now = options.now ?? clockNow;

  /** The injection this call would get (null: nothing is due), without making a chunk of it. */
  const decide = async ({ stepIndex, reply }: StepContext, call: HintCallOptions = {}) => {
    if (!config.injectRuntimeState) return null;
    const tasksEditedByPerson = await options.tasksEditedByPerson(stepIndex);
    const tasks = await options.tasks(stepIndex);
    const counts = {
      pending: tasks.filter((t) => t.status === "pending").length,
      inProgress: tasks.filter((t) => t.status === "in_progress").length,
    };
    const open = config.tasksDetail === "list" ? tasks.flatMap((t) => (t.status === "pending" || t.status === "in_progress" ? [{ id: t.id, status: t.status, subject: t.subject }] : [])) : undefined;
    const noOpenTasks = counts.pending + counts.inProgress === 0;
    let scan: ContextScan;
    if (call.since) {
      const sameCounts = call.since.pending === counts.pending && call.since.inProgress === counts.inProgress;
      scan = { lastTimeText: call.since.text, tasksSeen: noOpenTasks || sameCounts };
    } else {
      const scanOptions = { source: config.injectionSource, taskToolNames: config.taskToolNames };
      const seen = combine(scanHistory(history(), scanOptions), scanContext([reply], { ...scanOptions, openTasks: true }));
      scan = { ...seen, tasksSeen: seen.tasksSeen || noOpenTasks };
    }
    const at = now();
    const injection = decideInjection({
      config,
      now: at,
      scan,
      tasks: { ...counts, open },
      tasksEditedByPerson,
      isFirstCall: stepIndex === 0,
      compressed: call.compressed,
      full: call.full,
      sincePersonsPrevious: call.sincePersonsPrevious,
      context: {
        inputTokens: (call.full || call.compressed) && call.inputTokens !== undefined ? call.inputTokens : options.firstCallInputTokens,
        contextWindow: options.contextWindow,
        triggerRatio: settings.context.triggerRatio,
      },
    });
    return injection ? { injection, at, counts, taskEdits: options.taskEdits?.() } : null;
  };

  /** The decided injection as the step's chunk (streamed, or quiet when hint events are off). */
  const chunkOf = (
    { injection, at, taskEdits }: { injection: { fields: Record<string, string>; text: string }; at: Date; taskEdits?: number },
    call: HintCallOptions = {},
  ): BeforeStepResult => {
    const data: HintData = { source: config.injectionSource, fields: injection.fields, text: injection.text, createdAt: at.toISOString() };
    // The task counts tell the person's edits so far: the agent has heard of them while this hint is in its input.
    if (taskEdits && injection.fields.tasks !== undefined) data.taskEdits = taskEdits;
    if (call.full) data.replace = true;
    const chunk = { type: "data-hint" as const, id: generateId(), data };
    return config.emitHintEvent ? { chunks: [chunk] } : { quiet: [chunk] };
  };

  const step = async (context: StepContext, call: HintCallOptions = {}): Promise<BeforeStepResult | undefined> => {
    const decided = await decide(context, call);
    return decided ? chunkOf(decided, call) : undefined;
  };
  return Object.assign(step, { decide, chunkOf });
}
