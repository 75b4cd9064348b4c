import { toolCallIdSchema } from "@/lib/api/mcp-schemas";
import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { cancelToolCall } from "@/lib/chat/cancel-tool-call";

export const dynamic = "force-dynamic";

type Params = { id: string; toolCallId: string };

/** Cancels one running tool call; the reply goes on with a tool error for it. */
export const POST = route<Params>(async (_request, { id, toolCallId }) =>
  Response.json(
    await cancelToolCall(
      parseWith(idSchema, id, "conversation id"),
      parseWith(toolCallIdSchema, toolCallId, "tool call id"),
    ),
  ),
);

export const { GET, PATCH, PUT, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
