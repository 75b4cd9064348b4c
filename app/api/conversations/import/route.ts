import { generateId } from "ai";
import { ApiError } from "@/lib/api/errors";
import { maxImportBytes } from "@/lib/api/limits";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema, importSchema } from "@/lib/api/schemas";
import { canonicalTimeZone } from "@/lib/agent/settings";
import { importBundleSchema, isBundle } from "@/lib/api/organise-schemas";
import { importConversation, importConversations, importTargetOf } from "@/lib/chat/conversation-import";

export const dynamic = "force-dynamic";

// `?settings=apply` applies the file's settings (validated like a PATCH); without it the import gets the defaults.
// The choice is the person's, in the URL: a flag inside the file would let the file choose for them.
function settingsMode(request: Request): "apply" | "default" {
  const mode = new URL(request.url).searchParams.get("settings");
  if (mode === null || mode === "default") return "default";
  if (mode === "apply") return "apply";
  throw new ApiError(
    "bad_request",
    `Invalid query parameter settings: must be "apply" (use the file's settings) or "default" (got "${mode.slice(0, 40)}").`,
    "settings",
  );
}

// `?timezone=Europe/Berlin`: the importing browser's zone, which the copy lives in (as a new conversation does) unless
// its applied settings name one. An unknown zone is refused, as a PATCH refuses it.
function importZone(request: Request): string | undefined {
  const zone = new URL(request.url).searchParams.get("timezone");
  if (zone === null || zone === "") return undefined;
  const canonical = canonicalTimeZone(zone.slice(0, 64));
  if (!canonical)
    throw new ApiError(
      "bad_request",
      `Invalid query parameter timezone: "${zone.slice(0, 40)}" is not a known IANA time zone (e.g. Europe/Berlin).`,
      "timezone",
    );
  return canonical;
}

// `?workspaceId=ws_…`: the workspace the copies land in (the UI sends the one the person is in); without it, the
// viewer's default.
function importWorkspace(request: Request): string | undefined {
  const raw = new URL(request.url).searchParams.get("workspaceId");
  return raw === null ? undefined : parseWith(idSchema, raw, "workspaceId");
}

export const POST = route(async (request, _params, viewer) => {
  const applySettings = settingsMode(request) === "apply";
  const timezone = importZone(request);
  const owner = await importTargetOf(viewer, importWorkspace(request));
  const body = await readJson(request, { maxBytes: maxImportBytes() });
  // A bundle (POST /api/conversations/export's answer) is imported whole or not at all.
  if (isBundle(body)) {
    const ids = await importConversations(parseWith(importBundleSchema, body).conversations, generateId, {
      applySettings,
      timezone,
      owner,
    });
    return Response.json({ ids }, { status: 201 });
  }
  return Response.json(
    await importConversation(parseWith(importSchema, body), generateId, { applySettings, timezone, owner }),
    { status: 201 },
  );
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
