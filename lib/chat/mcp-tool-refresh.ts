// "Use the new tools now": a conversation's MCP tool list made again from its workspace's servers as they are, so the
// next model call offers it (one cache break, which the detector names tools-changed), cut to the MCP share of the
// conversation's window; what it leaves out is told to the agent at the next reply's first step.
import { resolveSettings } from "../agent/settings.ts";
import { createMcpSessions } from "../ai/mcp/sessions.ts";
import { ApiError } from "../api/errors.ts";
import { getConversationMcpToolsRow, replaceConversationMcpTools } from "../db/conversation-mcp-tools.ts";
import { getConversation } from "../db/conversations.ts";
import { DEFAULT_WORKSPACE_ID } from "../db/workspaces.ts";
import { contextWindowFor } from "./context-measure.ts";
import { publishChange } from "./live/event-bus.ts";
import { discoverMcpTools, storedList } from "./mcp-reply.ts";
import { workspaceMcpConfigs } from "./mcp-servers.ts";

/** POST /api/conversations/:id/mcp-tools/refresh. `leftOut`: how many tools the caps left out of the list. */
export async function refreshConversationMcpTools(
  conversationId: string,
): Promise<{ changed: boolean; revision: number; tools: string[]; leftOut: number }> {
  const conversation = await getConversation({ id: conversationId });
  if (!conversation || conversation.parentId)
    throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`, "id");
  const workspaceId = conversation.workspaceId ?? DEFAULT_WORKSPACE_ID;
  const contextWindow = contextWindowFor(resolveSettings(conversation.settings), conversation.model);
  const sessions = createMcpSessions();
  try {
    const stored = await getConversationMcpToolsRow({ conversationId });
    const list = await discoverMcpTools(
      await workspaceMcpConfigs(workspaceId),
      sessions,
      workspaceId,
      contextWindow,
      storedList(stored),
    );
    const tools = list.tools.map((t) => t.name);
    const leftOut = list.leftOut.length;
    // The same list again is no news: no new revision, so no cache break for nothing.
    if (stored && JSON.stringify(stored.data) === JSON.stringify(list.tools))
      return { changed: false, revision: stored.revision, tools, leftOut };
    const revision = await replaceConversationMcpTools({
      conversationId,
      data: list.tools,
      leftOut: list.leftOut,
      leftOutTold: false,
    });
    publishChange({ type: "conversation", id: conversationId });
    return { changed: true, revision, tools, leftOut };
  } finally {
    await sessions.close();
  }
}
