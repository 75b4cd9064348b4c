// A reply step's read: the conversation's state in one statement (lib/db/step-state.ts), then only what that shows
// changed — the workspace's news when its revision moved past what the agent knows, the MCP catalog when the revision
// moved since the last step, the plan when a BUILD reminder is due, children whose server died. Nothing here decides
// what the agent is told (lib/agent/step-decision.ts does) nor writes what it was told (write-step.ts).
import { parseAgentState, type AgentState } from "../agent-state.ts";
import type { Known, StepState } from "../../agent/step-decision.ts";
import { type ConversationMode, isConversationMode, modeReminderDue } from "../../agent/plan-mode.ts";
import { resolveSettings, type Settings } from "../../agent/settings.ts";
import { SUBAGENTS_PER_HINT } from "../../agent/subagents.ts";
import type { Task } from "../../chat-message.ts";
import { currentPlan } from "../../db/plans.ts";
import { readStepState } from "../../db/step-state.ts";
import { type ChildRecord, listChildren } from "../../db/subagents.ts";
import { toTask } from "../../db/tasks.ts";
import type { WorkspaceViewStatus } from "../../db/workspace-views.ts";
import type { McpChangeTracker, McpNews } from "../mcp-tool-changes.ts";
import { inheritedMode } from "../subagent-mode.ts";
import { MAX_RUNNING_CHILDREN, settleOrphans } from "../subagent-runs.ts";
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
  };
}

/** What a step found to tell besides the conversation's own state, and what to store once it is told. */
export type StepNews = { workspace?: WorkspaceNews; mcp?: McpNews; told: ChildRecord[] };

/** The children that finished in the background and wait to be told (those of a dead server settled first). */
async function finishedChildren(conversationId: string, read: ChildRecord[] | undefined): Promise<{ all: ChildRecord[]; pending: ChildRecord[] }> {
  let all = read ?? (await listChildren({ parentId: conversationId }));
  if (all.length && (await settleOrphans(all))) all = await listChildren({ parentId: conversationId });
  const pending = all.filter((c) => c.pending).sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.id.localeCompare(b.id));
  return { all, pending };
}

/**
 * The step's state for the decision: the conversation's, and what changed outside it since the agent last heard.
 * `compressed`: the context was just compressed (a plan-mode reminder is due again).
 */
export async function readNews({
  conversationId,
  state,
  known,
  compressed,
  workspace,
  mcp,
  hints,
  child,
}: {
  conversationId: string;
  state: ConversationState;
  known: Known;
  compressed: boolean;
  /** Whether hints are told at all (the settings' master switch). */
  hints: boolean;
  /** A subagent's step (its BUILD reminder carries no plan: the plan is its parent's). */
  child: boolean;
  workspace: WorkspaceTracker;
  mcp?: McpChangeTracker;
}): Promise<{ step: Omit<StepState, "sincePersonsPrevious">; news: StepNews }> {
  const own = { mode: state.mode, plan: null, tasks: state.tasks, taskEdits: state.agentState.taskEdits ?? 0 };
  // With hints off nothing is told, so nothing is looked for (and nothing is marked told).
  if (!hints) return { step: own, news: { told: [] } };
  const buildReminder = !child && state.mode === "build" && modeReminderDue({ mode: state.mode, toldMode: known.told.mode, compressed });
  const [plan, workspaceNews, children] = await Promise.all([
    buildReminder ? currentPlan({ conversationId }) : null,
    workspace.beforeStep(known.told.workspaceRevision, state.workspace),
    finishedChildren(conversationId, state.children),
  ]);
  // The MCP check looks again only when the workspace's revision moved (its servers are part of it).
  const mcpNews = await mcp?.beforeStep(workspace.revision());
  const told = children.pending.slice(0, SUBAGENTS_PER_HINT);
  const step: Omit<StepState, "sincePersonsPrevious"> = {
    ...own,
    plan,
    ...(workspaceNews ? { workspace: workspaceNews } : {}),
    ...(mcpNews ? { mcp: mcpNews } : {}),
    ...(told.length
      ? {
          children: {
            finished: told.map((c) => ({
              agentKey: c.agentKey,
              ...(c.run.label ? { label: c.run.label } : {}),
              status: c.status,
              answer: c.run.answer ?? "",
              ...(c.run.error ? { error: c.run.error } : {}),
            })),
            more: children.pending.length - told.length,
            running: children.all.filter((c) => c.status === "running").length,
            maxRunning: MAX_RUNNING_CHILDREN,
          },
        }
      : {}),
  };
  return { step, news: { ...(workspaceNews ? { workspace: workspaceNews } : {}), ...(mcpNews ? { mcp: mcpNews } : {}), told } };
}
