import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { mcpServerNameSchema, mcpToolNameSchema } from "@/lib/api/mcp-schemas";
import { acceptMcpServerToolChange } from "@/lib/chat/mcp-servers";

export const dynamic = "force-dynamic";

type Params = { id: string; name: string; tool: string };

/** The person reviewed a changed MCP tool and accepts its new definition. */
export const POST = route<Params>(async (_request, { id, name, tool }) =>
  Response.json(
    await acceptMcpServerToolChange(
      parseWith(idSchema, id, "workspace id"),
      parseWith(mcpServerNameSchema, name, "server name"),
      parseWith(mcpToolNameSchema, tool, "tool name"),
    ),
  ),
);

export const { GET, PATCH, PUT, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
