// What the "told once" hints — the Mode reminder, the Workspace hint, the person's task edit, the answers of children
// that finished in the background and the state sources' values — have told the agent,
// read from the messages the next model call sends (the active branch's kept tail and the reply so far), like the time
// and task rules: a hint in a reply that was regenerated, retried, edited away or switched out of is not there, so the
// agent is told again. Pure; lib/chat folds it over a history incrementally (one message at a time, kept per
// conversation), so a step costs the new messages and the reply, never the whole conversation.
import type { ChatMessage, HintData, HintSource } from "../../chat-message.ts";
import { type ConversationMode, isConversationMode, MODE_HINT_SOURCE } from "../plan-mode.ts";
import { STATE_HINT_LABEL, type ToldState } from "../state-sources.ts";
import { SUBAGENTS_HINT_SOURCE } from "../subagents.ts";
import { WORKSPACE_HINT_SOURCE } from "../workspace-changes.ts";
import { sameSource } from "./scan-context.ts";

export type Told = {
  /** The mode the newest Mode reminder told (none: nothing, which is build). */
  mode?: ConversationMode;
  /** The workspace revision the newest Workspace hint told (none: only the system prompt's frozen copy). */
  workspaceRevision?: string;
  /** How many of the person's task edits the newest runtime hint with the task counts covered. */
  taskEdits: number;
  /**
   * The children's runs whose answers a Subagents hint handed over (childRunKey), and the children a hint from before
   * runs were recorded named (any of their runs counts as told).
   */
  childRuns?: readonly string[];
  childKeys?: readonly string[];
  /** Per state source, what its newest State hint told. */
  state?: Readonly<Record<string, ToldState>>;
};

export const NOTHING_TOLD: Told = { taskEdits: 0 };

const union = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  b?.length ? (a?.length ? [...new Set([...a, ...b])] : b) : a;

/** Whether a child's run was handed over by a hint the input holds. */
export function childRunTold(told: Told, agentKey: string, run: string): boolean {
  return (told.childRuns?.includes(run) ?? false) || (told.childKeys?.includes(agentKey) ?? false);
}

/** `newer` told after `older`: its newest hints win; task edits only grow. */
export function combineTold(older: Told, newer: Told): Told {
  return {
    mode: newer.mode ?? older.mode,
    workspaceRevision: newer.workspaceRevision ?? older.workspaceRevision,
    taskEdits: Math.max(older.taskEdits, newer.taskEdits),
    ...(older.childRuns || newer.childRuns ? { childRuns: union(older.childRuns, newer.childRuns) } : {}),
    ...(older.childKeys || newer.childKeys ? { childKeys: union(older.childKeys, newer.childKeys) } : {}),
    ...(older.state || newer.state ? { state: { ...older.state, ...newer.state } } : {}),
  };
}

const stringValues = (value: unknown): Record<string, string> | undefined =>
  value && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"))
    : undefined;

/** What a State hint told of its source (undefined: not one, or stored without what it told). */
function toldState(data: HintData): ToldState | undefined {
  const values = stringValues(data.state?.values);
  if (!values) return undefined;
  const since = data.state?.unavailableSince;
  return typeof since === "string" ? { values, unavailableSince: since } : { values };
}

/**
 * What one message told. Imported hints were never sent; a superseded status (the replace strategy's) is not in the
 * next input, but its task counts were news for the call it was sent with, so its edits count as told.
 */
export function toldIn(message: ChatMessage, runtimeSource: HintSource): Told {
  let told = NOTHING_TOLD;
  for (const part of message.parts) {
    if (part.type !== "data-hint") continue;
    const data = part.data as HintData | undefined;
    if (!data || data.imported === true || typeof data.fields !== "object" || data.fields === null) continue;
    if (sameSource(data.source, MODE_HINT_SOURCE)) {
      if (data.superseded !== true && isConversationMode(data.fields.mode)) told = { ...told, mode: data.fields.mode };
    } else if (sameSource(data.source, WORKSPACE_HINT_SOURCE)) {
      if (data.superseded !== true && typeof data.revision === "string")
        told = { ...told, workspaceRevision: data.revision };
    } else if (sameSource(data.source, SUBAGENTS_HINT_SOURCE)) {
      if (Array.isArray(data.runs))
        told = combineTold(told, { taskEdits: 0, childRuns: data.runs.filter((r) => typeof r === "string") });
      // A hint from before runs were recorded: "agent:x:1 done, agent:y:2 error, +3" names its children.
      else if (typeof data.fields.agents === "string")
        told = combineTold(told, { taskEdits: 0, childKeys: data.fields.agents.match(/agent:[a-z0-9-]+:\d+/g) ?? [] });
    } else if (
      data.state !== undefined &&
      data.source?.label === STATE_HINT_LABEL &&
      typeof data.source.sublabel === "string"
    ) {
      const state = toldState(data);
      if (state) told = { ...told, state: { ...told.state, [data.source.sublabel]: state } };
    } else if (
      sameSource(data.source, runtimeSource) &&
      typeof data.taskEdits === "number" &&
      data.taskEdits > told.taskEdits
    ) {
      told = { ...told, taskEdits: data.taskEdits };
    }
  }
  return told;
}

/**
 * A workspace revision ("<workspace>:<default>" or "<workspace>:<default>:<owner's own level>", each a counter that
 * only grows; a missing third is 0) as its three counters. A "+<hash>" after them is the operator's skills folder's
 * content (lib/chat/workspace-view.ts): it has no order, so it does not count here; a revision that differs only in it
 * is a different revision all the same, and the diff of the states says what changed.
 */
function counters(revision: string): [number, number, number] | undefined {
  const match = /^(\d+):(\d+)(?::(\d+))?(?:\+[0-9a-f]+)?$/.exec(revision);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : undefined;
}

/** The later of two workspace revisions (the first when they cannot be compared; the second when only their hashes differ). */
export function laterRevision(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const [x, y] = [counters(a), counters(b)];
  if (!x || !y) return a;
  return y.every((n, i) => n >= x[i]!) ? b : a;
}
