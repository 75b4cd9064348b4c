import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { refreshConversationMcpTools } from "@/lib/chat/mcp-tool-refresh";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

// "Use the new tools now": the conversation's MCP tool list is made again; the next model call offers it.
export const POST = route<{ id: string }>(async (_request, { id }) =>
  Response.json(await refreshConversationMcpTools(parseWith(idSchema, id, "conversation id"))),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
