// The conversation as the API and the page show it, and its export/import format.
import { resolveSettings, type Settings } from "../agent/settings.ts";
import { ApiError } from "../api/errors.ts";
import type { ChatMessage, ContextUsage, ModelInfo, Task } from "../chat-message.ts";
import { type BranchPoint, branchPoints } from "../agent/branches.ts";
import { listBranches } from "../db/branches.ts";
import { finishInterruptedBranchMove } from "./branches.ts";
import { getConversation } from "../db/conversations.ts";
import { listMessages, settleStaleReplies } from "../db/messages.ts";
import { listTasks } from "../db/tasks.ts";
import { modelInfoFor } from "../ai/providers/choice.ts";
import { replyLock } from "./live/reply-lock.ts";
import { conversationRun } from "./run-status.ts";
import type { RunView } from "../agent/run-view.ts";
import { parseAgentState } from "./agent-state.ts";
import { cacheFigures, precountCacheFigures } from "./cache-accounting.ts";
import { conversationMcpToolTokens } from "./mcp-tool-tokens.ts";
import { measureContext } from "./context-measure.ts";
import { conversationFixedPart, fixedOf } from "./fixed-part.ts";
import { precountTokens } from "./context-usage.ts";
import { type PlanView, planView } from "./plan.ts";
import { type ExportedAgent, exportedAgents } from "./subagent-transfer.ts";
import { type SubagentFields, subagentFields } from "./subagent-view.ts";

export type ConversationView = {
  id: string;
  workspaceId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  settings: Settings;
  messages: ChatMessage[];
  tasks: Task[];
  contextUsage: ContextUsage | null;
  /** The model the conversation uses (its own choice, else the default). */
  model: ModelInfo;
  /** Where the person can switch between alternatives (‹ index/count ›, on the message `messageId`). */
  branches: BranchPoint[];
  /** The reply being written and who holds it (lib/agent/run-view.ts); null when none is. */
  run: RunView | null;
} & PlanView &
  SubagentFields;

export async function getConversationView(id: string): Promise<ConversationView> {
  const conversation = await getConversation({ id });
  if (!conversation) throw new ApiError("not_found", `Conversation ${id} does not exist.`);
  await settleStaleReplies({ conversationId: id, activeIds: await replyLock().activeIds(id) });
  await finishInterruptedBranchMove(id);
  const settings = resolveSettings(conversation.settings);
  const [messages, tasks, plan, fixed, branchRecords, subagents, mcpTools] = await Promise.all([
    listMessages({ conversationId: id }),
    listTasks({ conversationId: id }),
    planView(id, conversation.mode),
    conversationFixedPart(id, settings, conversation.model),
    listBranches({ conversationId: id }),
    subagentFields(id),
    conversationMcpToolTokens(id),
  ]);
  const state = parseAgentState(conversation.agentState);
  const run = await conversationRun(id, messages);
  // A long conversation's counts and cache figures are summed in slices first, so that measuring it is a lookup.
  await precountTokens(messages);
  await precountCacheFigures(messages);
  const contextUsage = {
    ...measureContext({
      settings,
      history: messages,
      compression: state.compression,
      ...fixedOf(fixed),
      model: conversation.model,
      mcpTools,
    }),
    cache: cacheFigures(messages),
  };
  return {
    id: conversation.id,
    workspaceId: conversation.workspaceId,
    title: conversation.title,
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    settings,
    messages,
    tasks,
    contextUsage,
    model: modelInfoFor(conversation.model),
    branches: branchPoints(
      branchRecords,
      messages.map((m) => m.id),
    ),
    run,
    ...plan,
    ...subagents,
  };
}

/** A conversation as its export holds it, with its subagents' conversations inside. */
type ExportedConversation = Awaited<ReturnType<typeof exportedFields>> & {
  agents: ExportedAgent<ExportedConversation>[];
};

export async function exportConversation(
  id: string,
  level = 0,
): Promise<{ version: 1; exportedAt: string; conversation: ExportedConversation }> {
  const fields = await exportedFields(id);
  return {
    version: 1 as const,
    exportedAt: new Date().toISOString(),
    conversation: {
      ...fields,
      /** Its subagents, each with its own conversation (lib/chat/subagent-transfer.ts). */
      agents: await exportedAgents<ExportedConversation>(
        id,
        async (childId, childLevel) => (await exportConversation(childId, childLevel)).conversation,
        level,
      ),
    },
  };
}

async function exportedFields(id: string) {
  const view = await getConversationView(id);
  const conversation = await getConversation({ id });
  return {
    id: view.id,
    title: view.title,
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
    settings: conversation?.settings ?? {},
    messages: view.messages,
    tasks: view.tasks,
    mode: view.mode,
    /** The model the conversation chose (null: the server's default); each reply's own is in its metadata. */
    model: conversation?.model ?? null,
    plan: view.plan,
    planVersions: view.planVersions.map(({ content, author, createdAt }) => ({ content, author, createdAt })),
    pinned: conversation?.pinned ?? false,
    archived: conversation?.archived ?? false,
  };
}

export { importConversation } from "./conversation-import.ts";
