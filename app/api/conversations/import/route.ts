import { generateId } from "ai";
import { ApiError } from "@/lib/api/errors";
import { maxImportBytes } from "@/lib/api/limits";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/api/request";
import { importSchema } from "@/lib/api/schemas";
import { importConversation } from "@/lib/chat/conversation-view";

export const dynamic = "force-dynamic";

// `?settings=apply` applies the file's settings (validated like a PATCH); without it the import gets the defaults.
// The choice is the person's, in the URL: a flag inside the file would let the file choose for them.
function settingsMode(request: Request): "apply" | "default" {
  const mode = new URL(request.url).searchParams.get("settings");
  if (mode === null || mode === "default") return "default";
  if (mode === "apply") return "apply";
  throw new ApiError("bad_request", `Invalid query parameter settings: must be "apply" (use the file's settings) or "default" (got "${mode.slice(0, 40)}").`, "settings");
}

export const POST = route(async (request) => {
  const applySettings = settingsMode(request) === "apply";
  const body = parseWith(importSchema, await readJson(request, { maxBytes: maxImportBytes() }));
  return Response.json(await importConversation(body, generateId, { applySettings }), { status: 201 });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
