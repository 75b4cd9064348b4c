import { jsonResponse } from "@/lib/http/json-slices";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema, switchBranchSchema } from "@/lib/api/schemas";
import { switchConversationBranch } from "@/lib/chat/branches";
import { getConversationView } from "@/lib/chat/conversation-view";

export const dynamic = "force-dynamic";

/** Makes another alternative after `anchorId` the active one; answers the conversation as it now is. */
export const POST = route<{ id: string }>(async (request, { id }) => {
  const conversationId = parseWith(idSchema, id, "conversation id");
  const { anchorId, ordinal } = parseWith(switchBranchSchema, await readJson(request));
  await switchConversationBranch(conversationId, anchorId, ordinal);
  return jsonResponse(await getConversationView(conversationId));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
