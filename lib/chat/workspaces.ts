// Workspaces and their memory, as the API and the agent's tools change them. "default" always exists.
import { bumpWorkspaceRevision } from "../db/workspace-views.ts";
import { generateId } from "ai";
import type { z } from "zod";
import { MAX_MEMORY_ENTRIES, MAX_WORKSPACES } from "../agent/workspace-limits.ts";
import { memoryLinesOf, normalizeMemoryEntry } from "../agent/workspace-text.ts";
import {
  mergeWorkspaceSettings,
  resolveWorkspaceSettings,
  type WorkspaceSettings,
} from "../agent/workspace-settings.ts";
import { ApiError } from "../api/errors.ts";
import { defaultWorkspaceOf, mayEditWorkspace, resolveWorkspace } from "../auth/scope.ts";
import { ownerFilter, ownerIdOf, type Viewer } from "../auth/viewer.ts";
import type { createWorkspaceSchema, updateWorkspaceSchema } from "../api/workspace-schemas.ts";
import type { ConversationSummary } from "../chat-message.ts";
import {
  holdsEveryWord,
  isUnspacedWord,
  matchSnippet,
  searchableText,
  searchWords,
  splitUnspacedRuns,
} from "../agent/search-text.ts";
import { userNames } from "../db/accounts.ts";
import { listConversations } from "../db/conversations.ts";
import { conversationOwner } from "../db/ownership.ts";
import { searchConversations } from "../db/search.ts";
import {
  addMemoryEntryUnless,
  deleteMemoryEntry,
  listMemory,
  type MemoryAuthor,
  type MemoryEntry,
  replaceMemoryEntries,
  updateMemoryEntry,
} from "../db/memory.ts";
import {
  countWorkspaceConversations,
  createWorkspace,
  DEFAULT_WORKSPACE_ID,
  deleteWorkspace,
  isDefaultWorkspace,
  findWorkspaceByName,
  getWorkspace,
  getWorkspaceSettings,
  isForeignKeyViolation,
  isUniqueViolation,
  listWorkspaces,
  setWorkspaceSettings,
  updateWorkspace,
  type Workspace,
  type WorkspaceSummary,
} from "../db/workspaces.ts";

export { DEFAULT_WORKSPACE_ID };

/**
 * A workspace as its viewer sees it in a list: `editable` when they may change it (a shared one: its owner, an admin);
 * `owner`, for the one person of open or token mode, names the account a workspace came from (after accounts mode,
 * each account's private "default" is one more workspace of that name).
 */
export type VisibleWorkspace = WorkspaceSummary & { editable: boolean; owner?: string };

/** The workspaces the viewer sees: every one for the operator; a user's own and the shared ones, theirs first. */
export async function visibleWorkspaces(viewer: Viewer): Promise<VisibleWorkspace[]> {
  if (viewer.kind === "operator") {
    const rows = await listWorkspaces();
    const names = await userNames({ ids: [...new Set(rows.flatMap((r) => (r.ownerId ? [r.ownerId] : [])))] });
    return rows.map(({ ownerId, ...summary }) => ({
      ...summary,
      editable: true,
      ...(ownerId ? { owner: names.get(ownerId) ?? "a former account" } : {}),
    }));
  }
  const rows = await listWorkspaces({ userId: viewer.userId, defaultId: await defaultWorkspaceOf(viewer) });
  return rows.map(({ ownerId, ...summary }) => ({ ...summary, editable: mayEditWorkspace(viewer, ownerId) }));
}

export type ConversationMatch = ConversationSummary & {
  match: { messageId: string; snippet: string } | { title: true };
};

const SEARCH_LIMIT = 50;

/**
 * Conversations whose title or message text (attachments' text included) holds every word of `query`: title matches
 * first, then by their newest matching message, each newest first; at most 50. In one workspace when one is named,
 * otherwise in every workspace the viewer sees (`scope=all`); in accounts mode only the viewer's own conversations.
 */
export async function searchWorkspaceConversations(
  viewer: Viewer,
  query: string,
  { workspaceId: named, scope }: { workspaceId?: string; scope?: "all" } = {},
): Promise<ConversationMatch[]> {
  if (scope === "all" && named !== undefined) {
    throw new ApiError(
      "bad_request",
      "scope=all searches every workspace you can see: leave out workspaceId (or scope, to search that one workspace).",
      "scope",
    );
  }
  const workspaceId = named === undefined ? undefined : await resolveWorkspace(viewer, named, "use");
  if (workspaceId !== undefined) await requireWorkspace(workspaceId);
  const ownerId = ownerFilter(viewer);
  const words = searchWords(query);
  if (words.length === 0)
    throw new ApiError("bad_request", "The search has no words to look for (letters or digits).", "q");
  // A user's conversation left in a workspace no longer shared with them is not searched.
  const workspaceIds =
    workspaceId === undefined && viewer.kind === "user"
      ? (await visibleWorkspaces(viewer)).map((w) => w.id)
      : undefined;
  // Chinese, Japanese and the like are found anywhere in a message (a word index only finds a run's start).
  const unspaced = words.some(isUnspacedWord);
  const terms = unspaced ? splitUnspacedRuns(words) : words;
  const substring = unspaced ? { accept: (parts: unknown) => holdsEveryWord(searchableText(parts), terms) } : undefined;
  const hits = await searchConversations({
    words: terms,
    workspaceId,
    workspaceIds,
    ownerId,
    limit: SEARCH_LIMIT,
    substring,
  });
  // Archived conversations are found too (their summary says `archived: true`).
  const ids = hits.map((hit) => hit.conversationId);
  const summaries = new Map((await listConversations({ ids, ownerId, archived: "any" })).map((c) => [c.id, c]));
  return hits.flatMap((hit) => {
    const summary = summaries.get(hit.conversationId);
    if (!summary) return [];
    const match = hit.messageId
      ? { messageId: hit.messageId, snippet: matchSnippet(hit.parts, terms) }
      : { title: true as const };
    return [{ ...summary, match }];
  });
}

export async function requireWorkspace(id: string): Promise<Workspace> {
  const workspace = await getWorkspace({ id });
  if (!workspace) throw new ApiError("not_found", `Workspace ${id} does not exist.`);
  return workspace;
}

async function nameTaken(name: string, ownerId: string | null = null): Promise<ApiError> {
  const other = await findWorkspaceByName({ name, ownerId });
  return new ApiError(
    "conflict",
    `A workspace named "${name}" already exists${other ? ` (${other.id})` : ""}; choose another name.`,
    "name",
  );
}

export async function addWorkspace(viewer: Viewer, input: z.infer<typeof createWorkspaceSchema>): Promise<Workspace> {
  if (input.shared && (viewer.kind !== "user" || !viewer.admin)) {
    const why =
      viewer.kind === "user"
        ? "only an admin can share a workspace with everyone"
        : "workspaces are shared only in accounts mode (HINTLINE_AUTH=accounts)";
    throw new ApiError(
      viewer.kind === "user" ? "forbidden" : "bad_request",
      `The workspace cannot be shared: ${why}.`,
      "shared",
    );
  }
  const ownerId = ownerIdOf(viewer);
  // A user's own "default" exists before they name another workspace so (the name is then taken).
  if (viewer.kind === "user") await defaultWorkspaceOf(viewer);
  try {
    const created = await createWorkspace({
      id: `ws_${generateId()}`,
      name: input.name,
      instructions: input.instructions,
      max: MAX_WORKSPACES,
      ownerId,
      shared: input.shared,
    });
    if (created === "limit")
      throw new ApiError("conflict", `There are already ${MAX_WORKSPACES} workspaces, the limit; delete one first.`);
    return created;
  } catch (error) {
    if (isUniqueViolation(error)) throw await nameTaken(input.name, ownerId);
    throw error;
  }
}

/** A workspace as GET /api/workspaces/:id shows it: with its memory as text, one entry per line, and its settings. */
export type WorkspaceDetails = Workspace & { memory: string; settings: WorkspaceSettings };

export async function workspaceDetails(id: string): Promise<WorkspaceDetails> {
  const [workspace, memory, settings] = await Promise.all([
    requireWorkspace(id),
    listMemory({ workspaceId: id }),
    getWorkspaceSettings({ id }),
  ]);
  return { ...workspace, memory: memory.map((e) => e.text).join("\n"), settings: resolveWorkspaceSettings(settings) };
}

/** The workspace's settings with their defaults; null when it does not exist. */
export async function workspaceSettingsOf(id: string): Promise<WorkspaceSettings | null> {
  const stored = await getWorkspaceSettings({ id });
  return stored === undefined ? null : resolveWorkspaceSettings(stored);
}

export async function editWorkspace(
  id: string,
  { memory, settings, ...input }: z.infer<typeof updateWorkspaceSchema>,
): Promise<WorkspaceDetails> {
  if (isDefaultWorkspace(id) && input.name !== undefined && input.name !== DEFAULT_WORKSPACE_ID) {
    throw new ApiError("bad_request", 'The default workspace cannot be renamed (its name is "default").', "name");
  }
  try {
    if (input.name !== undefined || input.instructions !== undefined) {
      if (!(await updateWorkspace({ id, ...input })))
        throw new ApiError("not_found", `Workspace ${id} does not exist.`);
    } else await requireWorkspace(id);
    if (memory !== undefined) await replaceMemory(id, memory);
    if (settings !== undefined) {
      const current = resolveWorkspaceSettings(await getWorkspaceSettings({ id }));
      await setWorkspaceSettings({ id, settings: mergeWorkspaceSettings(current, settings) });
    }
    await bumpWorkspaceRevision({ workspaceId: id });
    return workspaceDetails(id);
  } catch (error) {
    if (isUniqueViolation(error) && input.name !== undefined) throw await nameTaken(input.name);
    throw error;
  }
}

/** The whole memory from text (one entry per line): unchanged lines keep their entry (author, time), others go or come. */
async function replaceMemory(workspaceId: string, text: string): Promise<void> {
  const entries = await listMemory({ workspaceId });
  const wanted = memoryLinesOf(text);
  const byKey = new Map(entries.map((e) => [normalizeMemoryEntry(e.text), e]));
  const keep = new Set<string>();
  const add: Array<{ id: string; text: string; author: MemoryAuthor; createdAt: Date }> = [];
  // New lines follow the kept ones in the text's order (entries are listed oldest first).
  const at = Date.now();
  for (const line of wanted) {
    const existing = byKey.get(normalizeMemoryEntry(line));
    if (existing && existing.text === line) keep.add(existing.id);
    else add.push({ id: `mem_${generateId()}`, text: line, author: "person", createdAt: new Date(at + add.length) });
  }
  await replaceMemoryEntries({ workspaceId, removeIds: entries.filter((e) => !keep.has(e.id)).map((e) => e.id), add });
}

/** Refused for "default" and while conversations belong to it: deleting moves nothing silently. */
export async function removeWorkspace(id: string): Promise<void> {
  if (isDefaultWorkspace(id)) throw new ApiError("conflict", "The default workspace cannot be deleted.");
  await requireWorkspace(id);
  const refuse = (n: number) =>
    new ApiError(
      "conflict",
      `Workspace ${id} still has ${n} conversation${n === 1 ? "" : "s"}; delete ${n === 1 ? "it" : "them"} first.`,
    );
  const conversations = await countWorkspaceConversations({ id });
  if (conversations > 0) throw refuse(conversations);
  try {
    if (!(await deleteWorkspace({ id }))) throw new ApiError("not_found", `Workspace ${id} does not exist.`);
  } catch (error) {
    if (isForeignKeyViolation(error)) throw refuse(await countWorkspaceConversations({ id }));
    throw error;
  }
}

export type { MemoryEntry, WorkspaceSummary };

export async function workspaceMemory(workspaceId: string): Promise<MemoryEntry[]> {
  await requireWorkspace(workspaceId);
  return listMemory({ workspaceId });
}

function duplicateOf(entries: readonly MemoryEntry[], text: string, exceptId?: string): MemoryEntry | undefined {
  const wanted = normalizeMemoryEntry(text);
  return entries.find((e) => e.id !== exceptId && normalizeMemoryEntry(e.text) === wanted);
}

const duplicateError = (existing: MemoryEntry) =>
  new ApiError(
    "conflict",
    `Memory already holds this entry (${existing.id}, written by the ${existing.author} at ${existing.createdAt}): "${existing.text}". Entries are compared ignoring case and spaces; do not add it again.`,
    "text",
  );

/**
 * Appends one entry; a duplicate (ignoring case and spaces) or one over the limit is refused naming why.
 * `conversationId`: the conversation whose agent wrote it (it is not told about its own entry).
 */
export async function rememberEntry(
  workspaceId: string,
  text: string,
  author: MemoryAuthor,
  conversationId?: string,
  byUser?: string | null,
): Promise<MemoryEntry> {
  await requireWorkspace(workspaceId);
  // Accounts mode: the user who wrote it, or whose agent did.
  const authorId = byUser ?? (conversationId ? ((await conversationOwner({ id: conversationId })) ?? null) : null);
  // Checked and written under the workspace's memory lock: concurrent appends once passed both checks.
  const added = await addMemoryEntryUnless(
    { workspaceId, id: `mem_${generateId()}`, text: text.trim(), author, conversationId, authorId },
    (entries) => {
      const existing = duplicateOf(entries, text);
      if (existing) return duplicateError(existing);
      if (entries.length >= MAX_MEMORY_ENTRIES) {
        return new ApiError(
          "conflict",
          `Memory already holds ${MAX_MEMORY_ENTRIES} entries, the limit; delete or merge some first.`,
        );
      }
      return undefined;
    },
  );
  if ("refused" in added) throw added.refused;
  await bumpWorkspaceRevision({ workspaceId });
  return added.entry;
}

export async function editMemoryEntry(workspaceId: string, entryId: string, text: string): Promise<MemoryEntry> {
  await requireWorkspace(workspaceId);
  const existing = duplicateOf(await listMemory({ workspaceId }), text, entryId);
  if (existing) throw duplicateError(existing);
  const updated = await updateMemoryEntry({ workspaceId, id: entryId, text: text.trim() });
  if (!updated) throw new ApiError("not_found", `Memory entry ${entryId} does not exist in workspace ${workspaceId}.`);
  await bumpWorkspaceRevision({ workspaceId });
  return updated;
}

export async function forgetMemoryEntry(workspaceId: string, entryId: string): Promise<void> {
  await requireWorkspace(workspaceId);
  if (!(await deleteMemoryEntry({ workspaceId, id: entryId }))) {
    throw new ApiError("not_found", `Memory entry ${entryId} does not exist in workspace ${workspaceId}.`);
  }
  await bumpWorkspaceRevision({ workspaceId });
}
