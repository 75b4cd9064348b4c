// What a reply needs before its first model call: its tools (Hintline's and the conversation's MCP tools, fixed at
// its first reply), its context (measured with those tools, compressed if due) and its steps (read → decide → write).
import type { ChatChunk, PlanData, ToolProgressData } from "../../chat-message.ts";
import { DEFAULT_CHILD_MCP_TOOLS } from "../../agent/subagent-mcp.ts";
import { createTools } from "../tools/index.ts";
import { createCallCounter, createRepeatCounter } from "../tools/tool-context.ts";
import { listTasks } from "../../db/tasks.ts";
import { maxReplySteps } from "../../env-number.ts";
import { precountTokens } from "../context-usage.ts";
import { type ReplyMcp, openReplyMcp } from "../mcp-reply.ts";
import { mcpToolTokensOf } from "../mcp-tool-tokens.ts";
import { conversationMode } from "../plan.ts";
import { type PreparedContext, prepareContext } from "../prepare-context.ts";
import { inheritedMode } from "../subagent-mode.ts";
import { subagentHost } from "../subagent-runs.ts";
import { fixedPartFor } from "../fixed-part.ts";
import type { ReplyContext, ReplyPorts } from "./context.ts";
import { createReplySteps } from "./steps.ts";

export type PreparedReply = {
  context: PreparedContext;
  mcp: ReplyMcp;
  tools: ReturnType<typeof createTools>;
  nextCallNumber: ReturnType<typeof createCallCounter>;
  /** The conversations above a subagent's, nearest first (a waiting call of its is answered in its root). */
  ancestors: string[];
  steps: ReturnType<typeof createReplySteps>;
};

/** The tools' context: the conversation, the call counters, and what a tool tells the stream. */
function toolContextOf(reply: ReplyContext, ports: ReplyPorts, emit: (chunk: ChatChunk) => void) {
  const { conversationId } = reply;
  const workspaceId = reply.opened.workspaceId;
  const parentId = ports.child?.parentId;
  return {
    conversationId,
    workspaceId,
    nextCallNumber: createCallCounter(reply.history),
    repeatCount: createRepeatCounter(),
    // The panel follows the agent's task edits live; the snapshot is transient (tasks live in the database).
    onTasksChanged: async () =>
      emit({ type: "data-tasks", id: "tasks", data: await listTasks({ conversationId }), transient: true }),
    // Asked by a tool that writes, when it is called: the person may switch the mode mid-reply. A child plans while the
    // person's conversation above it does.
    mode: () => (parentId ? inheritedMode(parentId) : conversationMode(conversationId)),
    child: parentId !== undefined,
    onPlanChanged: (plan: PlanData) => emit({ type: "data-plan", id: "plan", data: plan, transient: true }),
    // A running MCP call's progress, for its row (transient: one snapshot per call).
    onToolProgress: (progress: ToolProgressData) =>
      emit({ type: "data-tool-progress", id: progress.toolCallId, data: progress, transient: true }),
    ...(ports.spawn ? { subagents: subagentHost({ start: ports.spawn, parentId: conversationId, workspaceId }) } : {}),
  };
}

export async function prepareReply(
  reply: ReplyContext,
  ports: ReplyPorts,
  emit: (chunk: ChatChunk) => void,
): Promise<PreparedReply> {
  const { conversationId, settings, contextWindow, history, committed, workspace } = reply;
  await precountTokens(history);
  const toolContext = toolContextOf(reply, ports, emit);
  // The conversation's MCP tools follow Hintline's own, as fixed at its first call (lib/chat/mcp-reply.ts). A subagent
  // gets those its agent allows of its root conversation's list; a call of its that waits is shown and answered in
  // its parent (lib/chat/subagent-approvals.ts). The list is known before the context is measured, so that a first
  // reply measures (and compresses) with its MCP tools as every later one does.
  const { ancestors, spawns } = reply;
  const fixedFor = { agent: ports.child?.agent, spawns, only: ports.child?.tools };
  const inherit = ancestors.length
    ? { rootId: ancestors.at(-1)!, allowed: ports.child?.tools ?? DEFAULT_CHILD_MCP_TOOLS }
    : undefined;
  const openMcp = () =>
    openReplyMcp({
      conversationId,
      workspaceId: reply.opened.workspaceId,
      contextWindow,
      history,
      committed,
      ctx: toolContext,
      inherit,
    });
  let mcp = await openMcp();
  let compressed = false;
  let context: PreparedContext;
  try {
    context = await prepareContext({
      conversationId,
      model: reply.utility.model,
      settings,
      contextWindow,
      fixed: () => fixedPartFor(settings, workspace.frozen(), contextWindow, fixedFor),
      history,
      agentState: reply.opened.agentState,
      mcpTools: mcpToolTokensOf(mcp.list),
      onCompressed: () => {
        compressed = true;
        return workspace.refresh();
      },
    });
  } catch (error) {
    await mcp.close();
    throw error;
  }
  // A compression marks a stored list stale: it is made again now (the cached prefix was rewritten anyway).
  if (compressed && mcp.stored) {
    await mcp.close();
    mcp = await openMcp();
  }
  // The tools as the fixed part after any compression chose them; a compression later in the reply keeps them.
  const builtIn = fixedPartFor(settings, workspace.frozen(), contextWindow, fixedFor).tools;
  const tools = { ...createTools(toolContext, builtIn.names, spawns, builtIn.style), ...mcp.tools };
  const steps = createReplySteps({
    conversationId,
    workspaceId: reply.opened.workspaceId,
    model: reply.utility.model,
    modelId: reply.model.info.id,
    settings,
    contextWindow,
    history,
    context,
    opened: reply.opened,
    workspace,
    mcpChanges: mcp.changes,
    child: ports.child !== undefined,
    resumed: reply.resumed !== undefined,
    maxSteps: maxStepsOf(ports),
  });
  return { context, mcp, tools, nextCallNumber: toolContext.nextCallNumber, ancestors, steps };
}

/** The model calls one reply may make: its agent's setting, else HINTLINE_MAX_STEPS. */
export const maxStepsOf = (ports: ReplyPorts): number => ports.child?.maxSteps ?? maxReplySteps();
