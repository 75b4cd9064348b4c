// "Use the new tools now": a conversation's MCP tool list made again from its workspace's servers as they are, so the
// next model call offers it (one cache break, which the detector names tools-changed).
import { createMcpSessions } from "../ai/mcp/sessions.ts";
import { ApiError } from "../api/errors.ts";
import { getConversationMcpToolsRow, replaceConversationMcpTools } from "../db/conversation-mcp-tools.ts";
import { getConversation } from "../db/conversations.ts";
import { DEFAULT_WORKSPACE_ID } from "../db/workspaces.ts";
import { publishChange } from "./live/event-bus.ts";
import { discoverMcpTools, isFixedTool } from "./mcp-reply.ts";
import { workspaceMcpConfigs } from "./mcp-servers.ts";

/** POST /api/conversations/:id/mcp-tools/refresh. */
export async function refreshConversationMcpTools(conversationId: string): Promise<{ changed: boolean; revision: number; tools: string[] }> {
  const conversation = await getConversation({ id: conversationId });
  if (!conversation || conversation.parentId) throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`, "id");
  const workspaceId = conversation.workspaceId ?? DEFAULT_WORKSPACE_ID;
  const sessions = createMcpSessions();
  try {
    const stored = await getConversationMcpToolsRow({ conversationId });
    const list = await discoverMcpTools(await workspaceMcpConfigs(workspaceId), sessions, workspaceId, (stored?.data ?? []).filter(isFixedTool));
    const tools = list.map((t) => t.name);
    // The same list again is no news: no new revision, so no cache break for nothing.
    if (stored && JSON.stringify(stored.data) === JSON.stringify(list)) return { changed: false, revision: stored.revision, tools };
    const revision = await replaceConversationMcpTools({ conversationId, data: list });
    publishChange({ type: "conversation", id: conversationId });
    return { changed: true, revision, tools };
  } finally {
    await sessions.close();
  }
}
