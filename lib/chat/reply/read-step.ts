// A reply step's read: the conversation's state in one statement (lib/db/step-state.ts), then only what that shows
// changed — the workspace's news when its revision moved past what the agent knows, the MCP catalog when the revision
// moved since the last step, the plan when a BUILD reminder is due, children whose server died, and the workspace's
// state sources (each read when its refresh is due, waited for no longer than its timeout: state-reader.ts). Nothing here decides
// what the agent is told (lib/agent/step-decision.ts does) nor writes what it was told (write-step.ts).
import { parseAgentState, type AgentState } from "../agent-state.ts";
import type { Known, StepState } from "../../agent/step-decision.ts";
import { type ConversationMode, isConversationMode, modeReminderDue } from "../../agent/plan-mode.ts";
import { resolveSettings, type Settings } from "../../agent/settings.ts";
import { childRunKey, SUBAGENTS_PER_HINT } from "../../agent/subagents.ts";
import { childRunTold } from "../../agent/hints/told.ts";
import type { Task } from "../../chat-message.ts";
import { currentPlan } from "../../db/plans.ts";
import { type QueuedSteer, readStepState } from "../../db/step-state.ts";
import { type ChildRecord, getChild, listChildren } from "../../db/subagents.ts";
import { toTask } from "../../db/tasks.ts";
import type { WorkspaceViewStatus } from "../../db/workspace-views.ts";
import type { McpChangeTracker, McpNews } from "../mcp-tool-changes.ts";
import { inheritedMode } from "../subagent-mode.ts";
import { MAX_RUNNING_CHILDREN, settleOrphans } from "../subagent-runs.ts";
import { readStateSources } from "../state-reader.ts";
import type { WorkspaceNews, WorkspaceTracker } from "../workspace-view.ts";

/** The conversation's own state as a step reads it (the reply's first step: as the reply read it when it opened). */
export type ConversationState = {
  settings: Settings;
  agentState: AgentState;
  mode: ConversationMode;
  tasks: Task[];
  /** undefined: not read (the reply's first step: the workspace tracker has the status it opened with). */
  workspace?: WorkspaceViewStatus;
  /** undefined: not read (the first step reads the children itself). */
  children?: ChildRecord[];
  /** The person's queued next-step messages (undefined: not read, the reply's first step). */
  steers?: QueuedSteer[];
};

/** The conversation's state now, in one statement; null when it was deleted meanwhile. */
export async function readConversationState(conversationId: string): Promise<ConversationState | null> {
  const row = await readStepState({ conversationId });
  if (!row) return null;
  return {
    settings: resolveSettings(row.settings),
    agentState: parseAgentState(row.agentState),
    // A subagent's mode is the person's conversation's above it.
    mode: row.parentId ? await inheritedMode(row.parentId) : isConversationMode(row.mode) ? row.mode : "build",
    tasks: row.tasks.map(toTask),
    workspace: row.workspace,
    children: row.children,
    steers: row.steers,
  };
}

/** What a step found to tell besides the conversation's own state, and what to store once it is told. */
export type StepNews = { workspace?: WorkspaceNews; mcp?: McpNews };

/**
 * The children that finished in the background and whose answers the input does not hold (a hint of the reply that
 * carried one may have been regenerated or edited away, or left by a branch switch), oldest first; those of a dead
 * server are settled first. `since`: after a compression, the first kept message's time (an answer from before it was
 * summarised with the rest). The step's read holds a finished child's run without its answer: those told are read whole.
 */
async function untoldChildren(
  conversationId: string,
  read: ChildRecord[] | undefined,
  known: Known,
  since: string | undefined,
) {
  let all = read ?? (await listChildren({ parentId: conversationId }));
  if (all.length && (await settleOrphans(all))) all = await listChildren({ parentId: conversationId });
  const endOf = (c: ChildRecord) => c.run.endedAt ?? c.updatedAt;
  const untold = all
    .filter(
      (c) =>
        c.background &&
        c.status !== "running" &&
        !childRunTold(known.told, c.agentKey, childRunKey(c.agentKey, c.run)) &&
        (!since || endOf(c) >= since),
    )
    .sort((a, b) => endOf(a).localeCompare(endOf(b)) || a.id.localeCompare(b.id));
  const chosen = untold.slice(0, SUBAGENTS_PER_HINT);
  const whole = read ? await Promise.all(chosen.map((c) => getChild({ id: c.id }))) : chosen;
  return {
    running: all.filter((c) => c.status === "running").length,
    told: whole.filter((c): c is ChildRecord => c !== null),
    more: untold.length - chosen.length,
  };
}

/**
 * The step's state for the decision: the conversation's, and what changed outside it since the agent last heard.
 * `compressed`: the context was just compressed (a plan-mode reminder is due again).
 */
export async function readNews({
  conversationId,
  workspaceId,
  state,
  known,
  compressed,
  workspace,
  mcp,
  hints,
  child,
  since,
}: {
  conversationId: string;
  workspaceId: string;
  state: ConversationState;
  known: Known;
  compressed: boolean;
  /** Whether hints are told at all (the settings' master switch). */
  hints: boolean;
  /** A subagent's step (its BUILD reminder carries no plan: the plan is its parent's). */
  child: boolean;
  /** After a compression, the first kept message's time: what ended before it was summarised with the rest. */
  since?: string;
  workspace: WorkspaceTracker;
  mcp?: McpChangeTracker;
}): Promise<{ step: Omit<StepState, "sinceLastReply">; news: StepNews }> {
  const own = { mode: state.mode, plan: null, tasks: state.tasks, taskEdits: state.agentState.taskEdits ?? 0 };
  // With hints off nothing is told, so nothing is looked for (and nothing is marked told).
  if (!hints) return { step: own, news: {} };
  const buildReminder =
    !child && state.mode === "build" && modeReminderDue({ mode: state.mode, toldMode: known.told.mode, compressed });
  const [plan, workspaceNews, children, stateSources] = await Promise.all([
    buildReminder ? currentPlan({ conversationId }) : null,
    workspace.beforeStep(known.told.workspaceRevision, state.workspace),
    untoldChildren(conversationId, state.children, known, since),
    readStateSources(workspaceId),
  ]);
  // The MCP check looks again only when the workspace's revision moved (its servers are part of it).
  const mcpNews = await mcp?.beforeStep(workspace.revision());
  const step: Omit<StepState, "sinceLastReply"> = {
    ...own,
    plan,
    stateSources,
    ...(workspaceNews ? { workspace: workspaceNews } : {}),
    ...(mcpNews ? { mcp: mcpNews } : {}),
    ...(children.told.length
      ? {
          children: {
            finished: children.told.map((c) => ({
              agentKey: c.agentKey,
              run: childRunKey(c.agentKey, c.run),
              ...(c.run.label ? { label: c.run.label } : {}),
              status: c.status,
              answer: c.run.answer ?? "",
              ...(c.run.error ? { error: c.run.error } : {}),
            })),
            more: children.more,
            running: children.running,
            maxRunning: MAX_RUNNING_CHILDREN,
          },
        }
      : {}),
  };
  return {
    step,
    news: { ...(workspaceNews ? { workspace: workspaceNews } : {}), ...(mcpNews ? { mcp: mcpNews } : {}) },
  };
}
