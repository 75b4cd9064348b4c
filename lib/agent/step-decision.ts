// The decision between two model calls of a reply (read → decide → write), in its two questions asked in order: must
// the context be compressed first (compressionDue), and then — from what the step read (the conversation's state),
// what the next call's input already tells the agent, the reply so far and the clock — which hints to append, which
// status to supersede and what harness state to store (decideStep). Pure: no I/O, the clock and the ids are arguments;
// lib/chat/reply/ reads before each question and writes after the second. The order of what it appends is fixed:
// Mode, Workspace, MCP tools, Subagents, the superseded status, the runtime hint, the step limit.
import type { ChatChunk, HintData, Task } from "../chat-message.ts";
import { automaticCompressionDue, type CompressionLeft } from "./compression-hold.ts";
import { decideInjection, type Injection, type InjectionInput } from "./hints/decide-injection.ts";
import type { ContextScan } from "./hints/scan-context.ts";
import type { Told } from "./hints/told.ts";
import {
  alphaFor,
  type ChosenStrategy,
  decideStrategy,
  type MeasuredCache,
  NO_FIGURES,
  recordCall,
  recordHint,
  type StrategyDecision,
  type StrategyFigures,
} from "./injection-strategy.ts";
import type { LeftOutMcpTool } from "./mcp-tool-caps.ts";
import { type McpToolChange, renderMcpLeftOutHint, renderMcpToolsHint } from "./mcp-tool-changes.ts";
import {
  type ApprovedPlan,
  type ConversationMode,
  MODE_HINT_SOURCE,
  modeReminderDue,
  renderModeReminder,
} from "./plan-mode.ts";
import type { Settings } from "./settings.ts";
import { decideStateHints, type StateSourceNow } from "./state-sources.ts";
import { type FinishedChild, renderSubagentsHint, SUBAGENTS_HINT_SOURCE } from "./subagents.ts";
import { countTokens } from "./token-count.ts";
import { renderStepLimitHint, STEPS_HINT_SOURCE } from "./step-limit.ts";
import { renderWorkspaceHint, WORKSPACE_HINT_SOURCE, type WorkspaceChange } from "./workspace-changes.ts";

export type HintChunk = Extract<ChatChunk, { type: "data-hint" }>;

/** The runtime state a status told: its text, and the open task counts it was rendered from. */
export type StatusUpdate = { text: string; pending: number; inProgress: number };

/** The injection strategy as the reply carries it from step to step (lib/agent/injection-strategy.ts has the rules). */
export type StrategyState = {
  figures: StrategyFigures;
  /** The state at the last update of the cost model (auto compares each call's state with it). */
  lastUpdate?: StatusUpdate;
  /** What the last call chose: this reply's, else the conversation's. */
  decision?: StrategyDecision;
  previous?: ChosenStrategy;
  /** The replace status the previous call of this reply carried: it is superseded before the next call. */
  open?: { chunk: HintChunk; quiet: boolean };
};

export const startStrategy = (stored: {
  figures?: StrategyFigures;
  lastUpdate?: StatusUpdate;
  previous?: ChosenStrategy;
}): StrategyState => ({
  figures: stored.figures ?? NO_FIGURES,
  ...(stored.lastUpdate ? { lastUpdate: stored.lastUpdate } : {}),
  ...(stored.previous ? { previous: stored.previous } : {}),
});

/** What the step read, as plain values: the conversation's state now and what changed outside it. */
export type StepState = {
  mode: ConversationMode;
  /** The plan as it is now (the BUILD reminder carries it); null when there is none or it was not needed. */
  plan: ApprovedPlan | null;
  tasks: readonly Task[];
  /** How many times the person changed the task list so far. */
  taskEdits: number;
  /** What changed in the workspace since the revision the agent knows, up to `revision` (nothing: no news). */
  workspace?: { name: string; revision: string; changes: readonly WorkspaceChange[] };
  /** What the conversation's MCP tool list left out (told once), and the tools that changed under it, not yet told. */
  mcp?: { leftOut?: readonly LeftOutMcpTool[]; changes?: readonly McpToolChange[] };
  /** Children that finished in the background and whose answers the input does not hold. */
  children?: { finished: readonly FinishedChild[]; more: number; running: number; maxRunning: number };
  /** The workspace's enabled state sources with their latest readings (undefined: not read). */
  stateSources?: readonly StateSourceNow[];
  /** Timestamps on, first call of a reply: how long after the agent's last reply ended the person's message came (ms). */
  sinceLastReply?: number;
};

/** What the next call's input already tells the agent (folded from the kept tail and the reply so far). */
export type Known = {
  scan: ContextScan;
  told: Told;
  /** Task edits a step of a reply still in the input went through without a task hint (news for that step only). */
  noticedEdits: number;
};

export type StepInput = {
  stepIndex: number;
  /** A subagent's step: its Mode reminders say what a child does while the person plans. */
  child?: boolean;
  /** The reply's last model call (it may make this many): it is told to answer with what it has, without tools. */
  stepLimit?: number;
  replyId: string;
  now: Date;
  newId: () => string;
  settings: Settings;
  contextWindow: number;
  /** What this call would send before anything is appended (the reply's first call: as measured before it). */
  inputTokens: number;
  /** The first call's input size (the context-length rule reads it). */
  firstCallInputTokens: number;
  /** The context was compressed right before this step: nothing is compressed again, and the hint tells the new size. */
  compressed: boolean;
  known: Known;
  state: StepState;
  strategy: StrategyState;
  /** α and w of the cost model: the model's cached-input and cache-write prices over its input price. */
  prices: { cachedRatio: number; writeRatio: number };
  /** The conversation's measured cache figures (asked only under auto). */
  measured?: () => MeasuredCache;
  /** Renders a subagent's free text safe inside a hint (lib/agent/hints/neutralize-tags.ts). */
  neutralize: (text: string) => string;
  hintMaxChars: number;
};

/** What the step stores besides its messages (merged into the conversation's agent state). */
export type StepStatePatch = {
  taskEditsNoticed?: { count: number; replyId: string };
  strategy?: StrategyFigures;
  strategyDecision?: StrategyDecision;
  strategyUpdate?: StatusUpdate;
};

export type StepDecision = {
  /** Appended before the call and streamed, in order. */
  chunks: HintChunk[];
  /** Appended before the call, stored but not streamed (hint events off, or a quiet status superseded). */
  quiet: HintChunk[];
  strategy: StrategyState;
  patch: StepStatePatch;
  /** Whether the call ends with a replace status (the cache-break detector's exception). */
  endsWithReplace: boolean;
};

/**
 * The first question: must the context be compressed before this call? A later step's input reached the trigger and,
 * after an earlier compression, grew by a real amount since the figure that one left (lib/agent/compression-hold.ts;
 * the reply's first call was measured, and compressed if due, as the context was prepared).
 */
export function compressionDue({
  stepIndex,
  inputTokens,
  settings,
  contextWindow,
  left,
}: Pick<StepInput, "stepIndex" | "inputTokens" | "settings" | "contextWindow"> & { left?: CompressionLeft }): boolean {
  const { triggerRatio, reserveRatio } = settings.context;
  return stepIndex > 0 && automaticCompressionDue({ inputTokens, contextWindow, triggerRatio, reserveRatio, left });
}

/**
 * The second question, on the context as it is now (compressed, if the first said so): what the call is told. With
 * `injectRuntimeState` off nothing of any kind is appended (the master switch); with `emitHintEvent` off every hint is
 * stored but none is streamed.
 */
export function decideStep(input: StepInput): StepDecision {
  const { settings, compressed } = input;
  const stream: HintChunk[] = [];
  const quiet: HintChunk[] = [];
  if (!settings.injection.injectRuntimeState) {
    const edited = input.state.taskEdits > Math.max(input.known.told.taskEdits, input.known.noticedEdits);
    const patch: StepStatePatch = edited
      ? { taskEditsNoticed: { count: input.state.taskEdits, replyId: input.replyId } }
      : {};
    return { chunks: [], quiet: [], strategy: input.strategy, patch, endsWithReplace: false };
  }
  const chunks = settings.injection.emitHintEvent ? stream : quiet;
  const hint = (
    source: HintData["source"],
    rendered: { fields: Record<string, string>; text: string },
    extra: Partial<HintData> = {},
  ): HintChunk => ({
    type: "data-hint",
    id: input.newId(),
    data: { source, fields: rendered.fields, text: rendered.text, createdAt: input.now.toISOString(), ...extra },
  });
  const { state, known } = input;
  if (modeReminderDue({ mode: state.mode, toldMode: known.told.mode, compressed })) {
    chunks.push(
      hint(
        MODE_HINT_SOURCE,
        renderModeReminder(state.mode, state.mode === "build" ? state.plan : null, { child: input.child }),
      ),
    );
  }
  if (state.workspace?.changes.length) {
    const { name, revision, changes } = state.workspace;
    chunks.push(hint(WORKSPACE_HINT_SOURCE, renderWorkspaceHint(name, changes), { revision }));
  }
  if (state.mcp?.leftOut?.length) chunks.push(hint(WORKSPACE_HINT_SOURCE, renderMcpLeftOutHint(state.mcp.leftOut)));
  if (state.mcp?.changes?.length) chunks.push(hint(WORKSPACE_HINT_SOURCE, renderMcpToolsHint(state.mcp.changes)));
  if (state.children?.finished.length) {
    const { finished, more, running, maxRunning } = state.children;
    const { runs, ...rendered } = renderSubagentsHint(finished, {
      more,
      running,
      maxRunning,
      maxChars: input.hintMaxChars,
      neutralize: input.neutralize,
    });
    chunks.push(hint(SUBAGENTS_HINT_SOURCE, rendered, { runs }));
  }
  // The person's own state after the news of the workspace, before the runtime hint: the time and tasks stay last,
  // nearest the answer, and a replace status stays the call's end.
  if (state.stateSources) {
    const { now, contextWindow } = input;
    const told = known.told.state;
    for (const { source, state: data, ...rendered } of decideStateHints({
      sources: state.stateSources,
      told,
      now,
      contextWindow,
    }))
      chunks.push(hint(source, rendered, { state: data }));
  }
  // The status the previous call of this reply ended with under replace is gone from this call.
  let strategy = input.strategy;
  if (strategy.open) {
    const { chunk, quiet: wasQuiet } = strategy.open;
    (wasQuiet ? quiet : stream).push({ ...chunk, data: { ...chunk.data, superseded: true } });
    strategy = { ...strategy, open: undefined };
  }
  const runtime = runtimeHint(input, strategy);
  if (runtime.chunk) chunks.push(runtime.chunk);
  if (input.stepLimit) chunks.push(hint(STEPS_HINT_SOURCE, renderStepLimitHint(input.stepLimit)));
  return { chunks: stream, quiet, strategy: runtime.strategy, patch: runtime.patch, endsWithReplace: runtime.replace };
}

/** The open task counts, and the open tasks themselves when the settings ask for the list. */
function taskFigures(tasks: readonly Task[], withList: boolean): InjectionInput["tasks"] {
  const pending = tasks.filter((t) => t.status === "pending").length;
  const inProgress = tasks.filter((t) => t.status === "in_progress").length;
  if (!withList) return { pending, inProgress };
  const open = tasks.flatMap((t) =>
    t.status === "pending" || t.status === "in_progress" ? [{ id: t.id, status: t.status, subject: t.subject }] : [],
  );
  return { pending, inProgress, open };
}

/**
 * The runtime hint of the step: under replace (configured, or chosen by auto) the full status, marked to be replaced;
 * under append what the rules find stale. The full status is measured either way (S of the cost model).
 */
function runtimeHint(
  input: StepInput,
  before: StrategyState,
): { chunk?: HintChunk; strategy: StrategyState; patch: StepStatePatch; replace: boolean } {
  const { settings, state, known, stepIndex, now } = input;
  const config = settings.injection;
  const patch: StepStatePatch = {};
  const edited = state.taskEdits > Math.max(known.told.taskEdits, known.noticedEdits);
  const tasks = taskFigures(state.tasks, config.tasksDetail === "list");
  const noOpenTasks = tasks.pending + tasks.inProgress === 0;
  const base = {
    config,
    now,
    tasks,
    tasksEditedByPerson: edited,
    isFirstCall: stepIndex === 0,
    sinceLastReply: state.sinceLastReply,
    context: {
      inputTokens: input.firstCallInputTokens,
      contextWindow: input.contextWindow,
      triggerRatio: settings.context.triggerRatio,
    },
  };
  const scan: ContextScan = { ...known.scan, tasksSeen: known.scan.tasksSeen || noOpenTasks };
  const withTokens = { ...base.context, inputTokens: input.inputTokens };
  const full = decideInjection({ ...base, scan, full: true, context: withTokens });
  // An update of the cost model: the state changed since the last one, by the rules append follows.
  const last = before.lastUpdate;
  const sameCounts = !!last && last.pending === tasks.pending && last.inProgress === tasks.inProgress;
  const changed =
    !!full &&
    (!last ||
      decideInjection({ ...base, scan: { lastTimeText: last.text, tasksSeen: noOpenTasks || sameCounts } }) !== null);
  const update =
    full && changed ? { text: full.text, pending: tasks.pending, inProgress: tasks.inProgress } : undefined;
  const statusTokens = countTokens(full?.text ?? "") + 4;
  const { alpha, from } =
    config.strategy === "auto"
      ? alphaFor(input.prices.cachedRatio, input.measured?.())
      : { alpha: input.prices.cachedRatio, from: "prices" as const };
  const decision = decideStrategy({
    configured: config.strategy,
    figures: before.figures,
    statusTokens,
    changed: !!update,
    alpha,
    alphaFrom: from,
    writeRatio: input.prices.writeRatio,
    previous: before.decision?.chosen ?? before.previous,
  });
  let figures = recordCall(before.figures, { statusTokens, changed: !!update });
  const lastUpdate = update ?? before.lastUpdate;
  let injection: Injection | null;
  if (decision.chosen === "append") {
    // After a compression the append hint tells the new context size (a figure kept in the tail is out of date).
    injection = decideInjection({
      ...base,
      scan,
      compressed: input.compressed,
      context: input.compressed ? withTokens : base.context,
    });
    if (injection) figures = recordHint(figures, countTokens(injection.text) + 4);
  } else injection = full;
  const replace = decision.chosen === "replace" && !!injection;
  const chunk = injection ? runtimeChunk(input, injection, replace) : undefined;
  if (edited && chunk?.data.taskEdits === undefined)
    patch.taskEditsNoticed = { count: state.taskEdits, replyId: input.replyId };
  Object.assign(patch, {
    strategy: figures,
    strategyDecision: decision,
    ...(lastUpdate ? { strategyUpdate: lastUpdate } : {}),
  });
  const open = replace && chunk ? { chunk, quiet: !config.emitHintEvent } : undefined;
  return {
    chunk,
    strategy: { figures, decision, ...(lastUpdate ? { lastUpdate } : {}), ...(open ? { open } : {}) },
    patch,
    replace,
  };
}

function runtimeChunk(input: StepInput, injection: Injection, replace: boolean): HintChunk {
  const data: HintData = {
    source: input.settings.injection.injectionSource,
    fields: injection.fields,
    text: injection.text,
    createdAt: input.now.toISOString(),
  };
  // The task counts tell the person's edits so far: the agent has heard of them while this hint is in its input.
  if (input.state.taskEdits && injection.fields.tasks !== undefined) data.taskEdits = input.state.taskEdits;
  if (replace) data.replace = true;
  return { type: "data-hint", id: input.newId(), data };
}
