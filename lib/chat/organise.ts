// Organising conversations: the list with or without the archived ones, and the export of several at once (one JSON
// bundle holding each conversation as GET /api/conversations/:id/export does; POST /api/conversations/import takes it).
import { ApiError } from "../api/errors.ts";
import { maxImportBytes } from "../api/limits.ts";
import type { ConversationSummary } from "../chat-message.ts";
import { resolveWorkspace } from "../auth/scope.ts";
import { ownerFilter, type Viewer } from "../auth/viewer.ts";
import { getConversation, listConversations } from "../db/conversations.ts";
import { exportConversation } from "./conversation-view.ts";
import { requireWorkspace } from "./workspaces.ts";
import { operatorNote } from "../operator-words.ts";

/**
 * The viewer's conversations of the list (of one workspace they may use, when named; every one's for the operator):
 * pinned first; `archived`: only the archived ones.
 */
export async function listedConversations(
  viewer: Viewer,
  { workspaceId: named, archived = false }: { workspaceId?: string; archived?: boolean },
): Promise<ConversationSummary[]> {
  const workspaceId = named === undefined ? undefined : await resolveWorkspace(viewer, named, "use");
  if (workspaceId !== undefined) await requireWorkspace(workspaceId);
  return listConversations({ workspaceId, archived, ownerId: ownerFilter(viewer) });
}

/** `?archived=true|false` (absent: false); anything else is refused naming the parameter. */
export function archivedParam(value: string | null): boolean {
  if (value === null || value === "false") return false;
  if (value === "true") return true;
  throw new ApiError(
    "bad_request",
    `Invalid query parameter archived: must be "true" or "false" (got "${value.slice(0, 40)}").`,
    "archived",
  );
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export type ExportBundle = {
  version: 1;
  exportedAt: string;
  conversations: Awaited<ReturnType<typeof exportConversation>>["conversation"][];
};

/**
 * The conversations named (each once, in the order given) as one bundle, serialised. Refused whole: an unknown id is
 * a 404 naming every unknown one; a bundle larger than an import accepts is a 413 (what is exported must import).
 */
export async function exportConversations(
  viewer: Viewer,
  ids: readonly string[],
): Promise<{ json: string; count: number }> {
  const unique = [...new Set(ids)];
  const missing: string[] = [];
  const ownerId = ownerFilter(viewer);
  for (const id of unique) {
    const conversation = await getConversation({ id });
    // Another user's conversation is named as missing, as an unknown one is.
    if (!conversation || (ownerId !== undefined && conversation.ownerId !== ownerId)) missing.push(id);
  }
  if (missing.length > 0) {
    const named = missing.slice(0, 5).join(", ") + (missing.length > 5 ? ` and ${missing.length - 5} more` : "");
    throw new ApiError(
      "not_found",
      `Conversation${missing.length === 1 ? "" : "s"} ${named} do${missing.length === 1 ? "es" : ""} not exist; nothing was exported.`,
      "ids",
    );
  }
  const bundle: ExportBundle = { version: 1, exportedAt: new Date().toISOString(), conversations: [] };
  // One at a time: a hundred long conversations are not all loaded at once.
  for (const id of unique) bundle.conversations.push((await exportConversation(id)).conversation);
  const json = importableJson(
    bundle,
    (size, limit) =>
      `These ${unique.length} conversations export to ${size}, over the ${limit} an import accepts${operatorNote(" (HINTLINE_MAX_IMPORT_BYTES)", "")}; export fewer at once.`,
  );
  return { json, count: unique.length };
}

/** An export serialised; one the import would refuse for its size is a 413 saying so (what is exported must import). */
export function importableJson(value: unknown, tooLarge: (size: string, limit: string) => string): string {
  const json = JSON.stringify(value);
  const bytes = Buffer.byteLength(json);
  const limit = maxImportBytes();
  if (bytes > limit) throw new ApiError("payload_too_large", tooLarge(megabytes(bytes), megabytes(limit)));
  return json;
}

/** One conversation's export file (GET /api/conversations/:id/export). */
export async function exportOneConversation(id: string): Promise<{ json: string; id: string }> {
  const body = await exportConversation(id);
  const json = importableJson(
    body,
    (size, limit) =>
      `This conversation's export is ${size}, over the ${limit} an import accepts${operatorNote(" (HINTLINE_MAX_IMPORT_BYTES)", "")}.`,
  );
  return { json, id: body.conversation.id };
}
