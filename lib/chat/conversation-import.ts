// Importing exported conversations: one (GET /api/conversations/:id/export's file) or several at once (the bundle of
// POST /api/conversations/export), all or nothing.
import { resolveSettings, validateSettings } from "../agent/settings.ts";
import { ApiError } from "../api/errors.ts";
import { defaultWorkspaceOf, resolveWorkspace } from "../auth/scope.ts";
import { ownerIdOf, type Viewer } from "../auth/viewer.ts";
import type { ImportedConversation } from "../api/schemas.ts";
import { deleteConversation, getConversation } from "../db/conversations.ts";
import { writeImportedConversations } from "../db/imports.ts";
import { loadHistory } from "../db/messages.ts";
import type { ImportedRows } from "../db/rows.ts";
import { parseAgentState } from "./agent-state.ts";
import { prepareAttachments } from "./attachments.ts";
import type { ChatMessage } from "../chat-message.ts";
import { cacheFigures, forgetCalls } from "./cache-accounting.ts";
import { tailStart } from "./compression.ts";
import { precountTokens, warmTokenCounts } from "./context-usage.ts";
import { checkModelChoice } from "./conversation-model.ts";
import { convertOptionsFor, modelMessagesOf } from "./model-messages.ts";
import { warmMessageIndex } from "./record-turn.ts";
import { warmHintScan } from "./reply/known.ts";
import { requireWorkspace } from "./workspaces.ts";
import { importAgents } from "./subagent-transfer.ts";
import { nextTurn } from "./yielding.ts";

/**
 * Where a viewer's imports land, as theirs: the workspace `named` (`?workspaceId=`, the one the person is in), which
 * they must be able to change, or else their own default workspace (the operator's: "default", no owner). An unknown
 * workspace (or another user's private one) is a 404 and a shared one the viewer only uses a 403, before anything
 * is read or stored.
 */
export async function importTargetOf(viewer: Viewer, named?: string): Promise<ImportOptions["owner"]> {
  const ownerId = ownerIdOf(viewer);
  if (named !== undefined) {
    const workspaceId = await resolveWorkspace(viewer, named, "edit");
    await requireWorkspace(workspaceId);
    return { ownerId, workspaceId };
  }
  return viewer.kind === "user" ? { ownerId, workspaceId: await defaultWorkspaceOf(viewer) } : undefined;
}

/** `owner`: whose the copies are (accounts mode) and the workspace they land in. */
type ImportOptions = {
  applySettings?: boolean;
  timezone?: string;
  owner?: { ownerId: string | null; workspaceId: string };
};

/** `settings` with the importing browser's zone, unless they name one: a conversation, imported or new, lives in it. */
function withZone(settings: Record<string, unknown>, timezone: string | undefined): object {
  const injection = (settings.injection ?? {}) as Record<string, unknown>;
  if (!timezone || injection.timezone !== undefined) return settings;
  return { ...settings, injection: { ...injection, timezone } };
}

/**
 * Imports an exported conversation under a new id (or the exported one when it is free). Its settings are applied
 * only when the person asks for it (`applySettings`), validated like a PATCH; otherwise it gets the defaults, in the
 * importing browser's `timezone` (as a new conversation does) rather than UTC. Its
 * hints are marked imported: they stay in the transcript but are never sent to the model as reminders.
 */
export async function importConversation(
  body: { conversation: ImportedConversation },
  newId: () => string,
  options: ImportOptions = {},
): Promise<{ id: string }> {
  const [id] = await importConversations([body.conversation], newId, options, "conversation");
  return { id: id! };
}

/**
 * Imports several conversations as importConversation does one, all or nothing: every one is checked before any is
 * written, and they are written in one transaction. `field` names them in errors ("conversations.2.settings…").
 * Returns their ids, in order.
 */
export async function importConversations(
  sources: readonly ImportedConversation[],
  newId: () => string,
  options: ImportOptions = {},
  field = "conversations",
): Promise<string[]> {
  const claimed = new Set<string>();
  const imports: ImportedRows[] = [];
  for (const [i, source] of sources.entries()) {
    imports.push(
      await importedRows(
        source,
        newId,
        options,
        claimed,
        sources.length === 1 && field === "conversation" ? field : `${field}.${i}`,
      ),
    );
  }
  const ids = imports.map((rows) => rows.conversation.id);
  // A conversation deleted under one of these ids earlier must not be compared with this one's first call.
  for (const id of ids) forgetCalls(id);
  await writeImportedConversations(imports);
  for (const id of ids) await warmHistory(id);
  // Their subagents, each imported the same way under its own id; one that fails takes the whole import back.
  try {
    for (const [i, source] of sources.entries()) {
      if (source.agents?.length)
        await importAgents(ids[i]!, source.agents, (agent) =>
          importConversation({ conversation: agent.conversation }, newId, options),
        );
    }
  } catch (error) {
    for (const id of ids) await deleteConversation({ id });
    throw error;
  }
  return ids;
}

/** Checks one exported conversation and turns it into rows under a free id (not in the database nor `claimed`). */
async function importedRows(
  source: ImportedConversation,
  newId: () => string,
  options: ImportOptions,
  claimed: Set<string>,
  at: string,
): Promise<ImportedRows> {
  const { applySettings = false, timezone } = options;
  if (applySettings) checkImportedSettings(source.settings, at);
  // A model this server cannot use is refused, naming the field (remove it to import with the default model).
  const model = source.model ? checkImportedModel(source.model, at) : null;
  checkImportedIds(source, at);
  const free = async (id: string) => !claimed.has(id) && !(await getConversation({ id }));
  let id = source.id && (await free(source.id)) ? source.id : newId();
  while (claimed.has(id)) id = newId();
  claimed.add(id);
  // A person's attachments are checked as chat checks them, and a PDF's text is extracted again here (never taken
  // from the file).
  const messages = [];
  for (const [i, m] of source.messages.entries()) {
    const hasFiles = m.role === "user" && m.parts.some((p) => p.type === "file");
    messages.push(hasFiles ? { ...m, parts: await prepareAttachments(m.parts, `${at}.messages.${i}.parts`) } : m);
  }
  return {
    conversation: {
      id,
      title: source.title || "Imported chat",
      settings: withZone(applySettings ? (source.settings as Record<string, unknown>) : {}, timezone),
      taskSeq: source.tasks.reduce((max, t) => Math.max(max, Number(t.id)), 0),
      // The positions handed out below; the next appended message takes the one after them.
      messageSeq: source.messages.length,
      // Words said elsewhere (or written into the file) are not this person's and agent's here: none become memory.
      memoryFrom: source.messages.length,
      // The agent of the new conversation has been told nothing: in plan mode its first reply says so again.
      mode: source.mode,
      planSeq: source.planVersions.length,
      model,
      pinned: source.pinned,
      archived: source.archived,
      ...(options.owner ?? {}),
    },
    messages: messages.map(importedMessageRow),
    tasks: source.tasks.map((t, position) => ({
      id: t.id,
      subject: t.subject,
      description: t.description,
      status: t.status,
      owner: t.owner ?? null,
      blocks: t.blocks,
      blockedBy: t.blockedBy,
      metadata: t.metadata as object,
      position,
    })),
    planVersions: source.planVersions.map((v, i) => ({
      version: i + 1,
      content: v.content,
      author: v.author,
      createdAt: v.createdAt ? new Date(v.createdAt) : new Date(),
    })),
  };
}

function checkImportedSettings(settings: unknown, at: string): void {
  const check = validateSettings(settings);
  if (check.ok) return;
  const field = check.field === "settings" ? `${at}.settings` : `${at}.settings.${check.field}`;
  throw new ApiError(
    "bad_request",
    `Invalid ${at}.settings${check.field === "settings" ? " " : "."}${check.message}.`,
    field,
  );
}

/** Message and task ids are unique, and every task link names a task of the import (Hintline's exports never break one). */
function checkImportedIds(source: ImportedConversation, at: string): void {
  const seen = new Set<string>();
  for (const m of source.messages) {
    if (seen.has(m.id)) throw new ApiError("bad_request", `Invalid ${at}.messages: duplicate message id ${m.id}.`);
    seen.add(m.id);
  }
  const taskIds = new Set(source.tasks.map((t) => t.id));
  if (taskIds.size !== source.tasks.length)
    throw new ApiError("bad_request", `Invalid ${at}.tasks: duplicate task id.`);
  source.tasks.forEach((t, i) => {
    for (const field of ["blocks", "blockedBy"] as const) {
      const missing = t[field].find((linked) => !taskIds.has(linked));
      if (missing !== undefined) {
        throw new ApiError(
          "bad_request",
          `Invalid ${at}.tasks.${i}.${field}: task ${missing} is not in the import.`,
          `${at}.tasks.${i}.${field}`,
        );
      }
    }
  });
}

/** A message's row: its stored status from its metadata (error and incomplete kept), hints marked imported. */
function importedMessageRow(m: ImportedConversation["messages"][number], position: number) {
  const { createdAt: _c, status, ...metadata } = (m.metadata ?? {}) as Record<string, unknown>;
  const stored = status === "error" || status === "incomplete" ? status : "complete";
  return {
    id: m.id,
    role: m.role,
    position,
    parts: m.parts.map(markImportedHint) as object[],
    metadata: metadata as object,
    status: stored,
  };
}

function checkImportedModel(id: string, at: string): string {
  try {
    return checkModelChoice(id);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const reason = error.message.replace(/^Invalid model: /, "");
    throw new ApiError(
      "bad_request",
      `Invalid ${at}.model: ${reason} Or leave the model out to import with the default one.`,
      `${at}.model`,
    );
  }
}

/**
 * Only the harness writes hints: whatever an import says about `imported`, its hints are marked as imported. A steer
 * (the person's message inside a reply) keeps its text only: its attachments were never checked as a message's are.
 */
function markImportedHint<P extends { type: string; data?: unknown }>(part: P): P {
  if (part.type === "data-steer") {
    const data = (typeof part.data === "object" && part.data !== null ? part.data : {}) as { parts?: unknown };
    const parts = Array.isArray(data.parts) ? data.parts.filter((p) => (p as { type?: unknown })?.type === "text") : [];
    return { ...part, data: { ...data, parts } };
  }
  if (part.type !== "data-hint") return part;
  const data = typeof part.data === "object" && part.data !== null && !Array.isArray(part.data) ? part.data : {};
  return { ...part, data: { ...data, imported: true } };
}

/**
 * An imported conversation is usually continued: its history goes into the cache and its messages are counted,
 * indexed, scanned for hints and converted to model messages now, so the first
 * reply does not load, tokenize, scan or convert the whole of it. Each of these is a fold kept per conversation
 * (lib/chat/history-fold.ts) that extends itself by what is new, so it is run over longer and longer prefixes of the
 * history, ~8 ms of them at a time: converting 28 MB of messages in one go held other requests a second.
 */
async function warmHistory(id: string): Promise<void> {
  const conversation = await getConversation({ id });
  if (!conversation) return;
  const { messages } = await loadHistory({
    conversationId: id,
    version: { messageSeq: conversation.messageSeq, createdAt: conversation.createdAt },
  });
  await precountTokens(messages);
  await inSlices(messages, (prefix) => {
    warmTokenCounts(prefix);
    cacheFigures(prefix);
    warmMessageIndex(prefix);
  });
  const { compression } = parseAgentState(conversation.agentState);
  const tail = messages.slice(tailStart(messages, compression));
  const settings = resolveSettings(conversation.settings);
  await inSlices(tail, (prefix) => {
    warmHintScan(prefix, settings);
    modelMessagesOf(prefix, convertOptionsFor(settings));
  });
}

/** `warm(prefix)` for longer and longer prefixes of `messages`, each step sized to take ~8 ms, a turn between them. */
async function inSlices(
  messages: readonly ChatMessage[],
  warm: (prefix: readonly ChatMessage[]) => void,
): Promise<void> {
  let end = 0;
  let step = 64;
  while (end < messages.length) {
    const start = performance.now();
    end = Math.min(messages.length, end + step);
    warm(end === messages.length ? messages : messages.slice(0, end));
    const took = performance.now() - start;
    if (took < 4) step *= 2;
    else if (took > 16) step = Math.max(16, Math.floor(step / 2));
    if (end < messages.length) await nextTurn();
  }
}
