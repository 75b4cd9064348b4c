import { approvalAnswerSchema, toolCallIdSchema } from "@/lib/api/mcp-schemas";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { answerApproval } from "@/lib/chat/approvals";

export const dynamic = "force-dynamic";

type Params = { id: string; toolCallId: string };

export const POST = route<Params>(async (request, { id, toolCallId }, viewer) => {
  const conversationId = parseWith(idSchema, id, "conversation id");
  const callId = parseWith(toolCallIdSchema, toolCallId, "tool call id");
  const input = parseWith(approvalAnswerSchema, await readJson(request));
  return Response.json(await answerApproval(viewer, conversationId, callId, input));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
