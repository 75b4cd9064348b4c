// Tool calls that wait for the person: stored while the reply waits (so any tab, a reload or another instance shows
// the card and may answer), and the answer, which the waiting reply picks up to run the call or give the model the
// person's reason as a tool error.
import { refuseOverBudget } from "./budgets.ts";
import { HANDOVER_REASON } from "../agent/resume-point.ts";
import { oneLine } from "../agent/hints/neutralize-tags.ts";
import { parseMcpToolName } from "../agent/mcp-rules.ts";
import { type ApprovalAnswer, type PendingApproval, STOPPED_BEFORE_ANSWER } from "../agent/reply-loop.ts";
import { ToolError } from "../agent/tool-result.ts";
import { ApiError } from "../api/errors.ts";
import { operatorNote } from "../operator-words.ts";
import { mayEditWorkspace } from "../auth/scope.ts";
import type { Viewer } from "../auth/viewer.ts";
import { getConversationMcpTools } from "../db/conversation-mcp-tools.ts";
import { getConversation } from "../db/conversations.ts";
import { getMcpServer, updateMcpServer } from "../db/mcp-servers.ts";
import { workspaceOwnership } from "../db/ownership.ts";
import {
  answerToolApproval,
  cancelPendingApprovals,
  createPendingApprovals,
  getToolApproval,
  listToolApprovals,
} from "../db/tool-approvals.ts";
import { publishChange } from "./live/event-bus.ts";
import { replyLock } from "./live/reply-lock.ts";

/** How often a waiting reply looks for answers (the answer may come from another instance). */
const POLL_MS = 250;

/** The error a denied call gives the model: the person's reason, and what to do instead. */
export function deniedError(call: PendingApproval, reason: string | null | undefined, callNumber: number): string {
  const said = reason ? oneLine(reason).trim() : "";
  return new ToolError({
    type: "ApprovalDeniedError",
    text: `ApprovalDeniedError: The person denied this call of ${call.toolName}, so it was not run. ${said ? `Their reason: "${said}"` : "They gave no reason."}`,
    args: call.input,
    advice:
      "Do not call it again with the same arguments: follow the person's reason, or ask them what they want instead.",
    toolName: call.toolName,
    call: callNumber,
  }).message;
}

/**
 * Stores the pending calls and waits until each is answered (or the reply is stopped: then with what it has). A
 * subagent's are shown in the conversations above it (`ancestors`, its parent first): their side panels and AgentSpawn
 * rows look again when it starts waiting and once it is answered.
 */
export async function waitForApprovals({
  conversationId,
  replyId,
  pending,
  signal,
  committed,
  nextCallNumber,
  ancestors = [],
}: {
  conversationId: string;
  replyId: string;
  pending: PendingApproval[];
  signal: AbortSignal;
  committed: Promise<void>;
  nextCallNumber: (toolName: string) => number;
  ancestors?: readonly string[];
}): Promise<(ApprovalAnswer & { remember: boolean })[]> {
  await committed;
  await createPendingApprovals(
    pending.map((p) => ({ conversationId, toolCallId: p.toolCallId, replyId, toolName: p.toolName })),
  );
  publishChange({ type: "conversation", id: conversationId });
  for (const id of ancestors) publishChange({ type: "agents", id });
  const toolCallIds = pending.map((p) => p.toolCallId);
  for (;;) {
    // Stopped: the calls no one answered are settled (the reply stores them as denied, not run), never left waiting.
    // Read once: a stop that comes while the rows are read is seen on the next round, after its calls are cancelled.
    const stopped = signal.aborted;
    if (stopped && signal.reason !== HANDOVER_REASON)
      await cancelPendingApprovals({ conversationId, toolCallIds, reason: STOPPED_BEFORE_ANSWER });
    const rows = await listToolApprovals({ conversationId, toolCallIds });
    const answered = rows.filter((r) => r.status === "approved" || r.status === "denied");
    if (answered.length === pending.length || stopped) {
      for (const id of ancestors) publishChange({ type: "agents", id });
      return answered.map((row) => {
        const call = pending.find((p) => p.toolCallId === row.toolCallId)!;
        const approved = row.status === "approved";
        return {
          toolCallId: row.toolCallId,
          approved,
          remember: row.remember,
          ...(row.reason ? { reason: row.reason } : {}),
          ...(approved ? {} : { errorText: deniedError(call, row.reason, nextCallNumber(call.toolName)) }),
        };
      });
    }
    if (signal.aborted) continue;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, POLL_MS);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    });
  }
}

/** How long an answer waits for its call to be stored (the card is streamed just before the reply stores it). */
const STORE_WAIT_MS = 5_000;

/** The call's stored row; while a reply of the conversation is live, an answer that came first waits for it a moment. */
async function pendingRow(conversationId: string, toolCallId: string) {
  const deadline = Date.now() + STORE_WAIT_MS;
  for (;;) {
    const row = await getToolApproval({ conversationId, toolCallId });
    if (row || Date.now() > deadline || !(await replyLock().live(conversationId))) return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The person's answer to a waiting call, from any tab or instance. Checked whole before anything is written.
 * "Always allow" changes the workspace's server for everyone in it, so only who may change the workspace may ask it
 * (the owner or an admin of a shared one): anyone else is refused with 403 and nothing is answered.
 */
export async function answerApproval(
  viewer: Viewer,
  conversationId: string,
  toolCallId: string,
  input: { approved: boolean; reason?: string; remember?: "tool" },
): Promise<{ toolCallId: string; status: "approved" | "denied" }> {
  const row = await pendingRow(conversationId, toolCallId);
  if (!row)
    throw new ApiError(
      "not_found",
      `Conversation ${conversationId} has no tool call ${toolCallId} waiting for approval.`,
    );
  if (row.status === "cancelled") {
    throw new ApiError(
      "conflict",
      `Tool call ${toolCallId} was cancelled: its reply was stopped before it was answered, so it was not run. Send a new message instead.`,
    );
  }
  if (row.status !== "pending")
    throw new ApiError("conflict", `Tool call ${toolCallId} was already ${row.status}; the first answer stands.`);
  const live = await replyLock().live(conversationId);
  if (live?.replyId !== row.replyId) {
    throw new ApiError(
      "conflict",
      `The reply that asked for tool call ${toolCallId} is no longer running (it was stopped or its server restarted); send a new message instead.`,
    );
  }
  // Either answer lets the reply call its model again: over budget, the call waits (Stop ends the reply).
  await refuseOverBudget(viewer);
  let remember: (() => Promise<unknown>) | undefined;
  if (input.remember === "tool") {
    const parsed = parseMcpToolName(row.toolName);
    const conversation = await getConversation({ id: conversationId });
    const fixed = ((await getConversationMcpTools({ conversationId })) ?? []) as {
      name?: string;
      server?: string;
      tool?: string;
    }[];
    const entry = fixed.find((t) => t.name === row.toolName);
    const server =
      parsed && conversation
        ? await getMcpServer({ workspaceId: conversation.workspaceId, name: parsed.server })
        : null;
    if (!server || !entry?.tool) {
      throw new ApiError(
        "conflict",
        `${row.toolName} cannot be always allowed here: only the tools of a workspace's own MCP servers can${operatorNote(" (the operator's servers are set in HINTLINE_MCP_CONFIG)", "")}.`,
        "remember",
      );
    }
    const workspace = await workspaceOwnership({ id: server.workspaceId });
    if (!mayEditWorkspace(viewer, workspace?.ownerId ?? null)) {
      throw new ApiError(
        "forbidden",
        `remember: "tool" would always allow ${entry.tool} of the MCP server ${server.name} for everyone in this workspace, which is shared with you to use; only its owner or an admin can change it. Nothing was answered: approve this call alone (without remember), or ask them to allow the tool.`,
        "remember",
      );
    }
    const tool = entry.tool;
    if (!server.alwaysAllow.includes(tool))
      remember = () =>
        updateMcpServer({
          workspaceId: server.workspaceId,
          name: server.name,
          alwaysAllow: [...server.alwaysAllow, tool],
        });
  }
  const stored = await answerToolApproval({
    conversationId,
    toolCallId,
    approved: input.approved,
    reason: input.reason,
    remember: input.remember === "tool",
  });
  if (!stored)
    throw new ApiError("conflict", `Tool call ${toolCallId} was answered meanwhile; the first answer stands.`);
  await remember?.();
  return { toolCallId, status: input.approved ? "approved" : "denied" };
}
