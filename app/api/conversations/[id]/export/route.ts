import { ApiError } from "@/lib/api/errors";
import { maxImportBytes } from "@/lib/api/limits";
import { otherMethodsNotAllowed, parseWith, route } from "@/lib/api/request";
import { idSchema } from "@/lib/api/schemas";
import { exportConversation } from "@/lib/chat/conversation-view";

export const dynamic = "force-dynamic";

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export const GET = route<{ id: string }>(async (_request, { id }) => {
  const body = await exportConversation(parseWith(idSchema, id, "conversation id"));
  const json = JSON.stringify(body);
  // What is exported must import: an export the import would refuse is refused here, saying so.
  const bytes = Buffer.byteLength(json);
  const limit = maxImportBytes();
  if (bytes > limit) {
    throw new ApiError(
      "payload_too_large",
      `This conversation's export is ${megabytes(bytes)}, over the ${megabytes(limit)} an import accepts (HINTLINE_MAX_IMPORT_BYTES).`,
    );
  }
  return new Response(json, {
    headers: {
      "content-type": "application/json",
      "content-disposition": `attachment; filename="hintline-${body.conversation.id}.json"`,
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
