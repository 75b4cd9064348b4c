// Queries for the Conversation aggregate.
import { type ConversationMode, type ConversationSummary, isConversationMode } from "../chat-message.ts";
import { databaseUrl, getDb, isPostgresUrl, sqliteDirect } from "./client.ts";
import { toConversationSummary } from "./converters.ts";
import { forgetHistory } from "./history-cache.ts";
import type { ConversationRow } from "./rows.ts";

export type ConversationRecord = ConversationSummary & {
  settings: unknown;
  agentState: unknown;
  /** "build" or "plan" (anything else stored reads as build). */
  mode: ConversationMode;
  /** Moves with every message appended or deleted (see lib/db/history-cache.ts). */
  messageSeq: number;
  /** The model the conversation chose; null: the default model. */
  model: string | null;
  /** A subagent's conversation: the conversation that spawned it (null: a person's conversation). */
  parentId: string | null;
  /** Accounts mode: the user it belongs to (null: the one person of open or token mode). */
  ownerId: string | null;
};

function toRecord(row: ConversationRow): ConversationRecord {
  const mode = isConversationMode(row.mode) ? row.mode : "build";
  return {
    ...toConversationSummary(row),
    settings: row.settings ?? {},
    agentState: row.agentState ?? {},
    mode,
    messageSeq: row.messageSeq,
    model: row.model ?? null,
    parentId: row.parentId ?? null,
    ownerId: row.ownerId ?? null,
  };
}

/**
 * The person's conversations (of one workspace, when given): pinned first, then the most recently updated. Without
 * `archived` the archived ones are left out; `archived: true` lists only them, `"any"` both (what search looks in).
 */
export async function listConversations({
  workspaceId,
  archived = false,
  ownerId,
  ids,
}: {
  workspaceId?: string;
  archived?: boolean | "any";
  ownerId?: string;
  /** Only these conversations (a search's matches). */
  ids?: readonly string[];
} = {}): Promise<ConversationSummary[]> {
  const db = await getDb();
  const rows = await db.conversation.findMany({
    // A subagent's conversation is reached through its parent, never listed.
    where: {
      parentId: null,
      ...(ids === undefined ? {} : { id: { in: [...ids] } }),
      ...(workspaceId === undefined ? {} : { workspaceId }),
      ...(ownerId === undefined ? {} : { ownerId }),
      ...(archived === "any" ? {} : { archived }),
    },
    orderBy: [{ pinned: "desc" }, { updatedAt: "desc" }, { id: "asc" }],
    select: {
      id: true,
      workspaceId: true,
      title: true,
      createdAt: true,
      updatedAt: true,
      pinned: true,
      archived: true,
    },
  });
  return rows.map(toConversationSummary);
}

/** Pins/unpins and archives/unarchives the conversation, keeping its place in time; false when it does not exist. */
export async function setConversationFlags({
  id,
  pinned,
  archived,
  updatedAt,
}: {
  id: string;
  pinned?: boolean;
  archived?: boolean;
  updatedAt: Date;
}): Promise<boolean> {
  const db = await getDb();
  const result = await db.conversation.updateMany({
    where: { id },
    data: { ...(pinned !== undefined ? { pinned } : {}), ...(archived !== undefined ? { archived } : {}), updatedAt },
  });
  return result.count > 0;
}

export async function getConversation({ id }: { id: string }): Promise<ConversationRecord | null> {
  const db = await getDb();
  const direct = sqliteDirect();
  const row = direct ? direct.conversation(id) : await db.conversation.findUnique({ where: { id } });
  return row ? toRecord(row) : null;
}

/** Returns the conversation, creating it (with the given settings) when it does not exist yet. */
export async function ensureConversation({
  id,
  settings,
  mode = "build",
  workspaceId = "default",
  model = null,
  ownerId = null,
}: {
  id: string;
  settings?: object;
  /** The mode of a conversation this creates (an existing one keeps its own). */
  mode?: ConversationMode;
  /** The workspace of a conversation this creates (it must exist); an existing one keeps its own. */
  workspaceId?: string;
  /** The model of a conversation this creates (null: the default); an existing one keeps its own. */
  model?: string | null;
  /** The owner of a conversation this creates; the caller checks an existing one's (lib/chat/start-reply.ts). */
  ownerId?: string | null;
}): Promise<ConversationRecord & { created: boolean }> {
  const db = await getDb();
  const direct = sqliteDirect();
  if (direct) {
    const row = direct.ensureConversation(id, settings ?? {}, mode, workspaceId, model, ownerId);
    return { ...toRecord(row), created: row.messageSeq === 0 };
  }
  // A read is all an existing conversation needs (an upsert would write); two first messages racing to create the
  // same conversation both end up with the one row.
  const existing = await db.conversation.findUnique({ where: { id } });
  if (existing) return { ...toRecord(existing), created: false };
  const row = await db.conversation.upsert({
    where: { id },
    create: { id, settings: settings ?? {}, mode, workspaceId, model, ownerId },
    update: {},
  });
  return { ...toRecord(row), created: row.messageSeq === 0 };
}

/** Renames the conversation and/or replaces its settings; false when it does not exist. */
export async function updateConversation({
  id,
  title,
  settings,
}: {
  id: string;
  title?: string;
  settings?: object;
}): Promise<boolean> {
  const db = await getDb();
  const result = await db.conversation.updateMany({
    where: { id },
    data: { ...(title !== undefined ? { title } : {}), ...(settings !== undefined ? { settings } : {}) },
  });
  return result.count > 0;
}

/** Switches the conversation's mode; false when it does not exist. */
export async function setConversationMode({ id, mode }: { id: string; mode: ConversationMode }): Promise<boolean> {
  const db = await getDb();
  const result = await db.conversation.updateMany({ where: { id }, data: { mode } });
  return result.count > 0;
}

/** Sets the conversation's model (null: the default again); false when it does not exist. */
export async function setConversationModel({ id, model }: { id: string; model: string | null }): Promise<boolean> {
  const db = await getDb();
  const result = await db.conversation.updateMany({ where: { id }, data: { model } });
  return result.count > 0;
}

/** Replaces the harness state. */
export async function setAgentState({ id, agentState }: { id: string; agentState: object }): Promise<void> {
  const db = await getDb();
  const direct = sqliteDirect();
  if (direct) direct.setAgentState(id, agentState);
  else await db.conversation.updateMany({ where: { id }, data: { agentState } });
}

const STATE_KEY = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * The statement that merges keys into the stored harness state and removes others, shallowly (a key's value is
 * replaced whole), without reading it: a state that is not an object counts as empty. The keys are checked names,
 * written into the text; the values are parameters (SQLite: one per key, then the time and the id).
 */
export function mergeAgentStateSql(
  dialect: "postgres" | "sqlite",
  set: readonly string[],
  unset: readonly string[],
): string {
  const bad = [...set, ...unset].find((k) => !STATE_KEY.test(k));
  if (bad !== undefined) throw new Error(`Not a harness state key: ${JSON.stringify(bad)}`);
  if (dialect === "postgres") {
    const removed = unset.map((k) => ` - '${k}'`).join("");
    return `UPDATE "Conversation" SET "agentState" = (CASE WHEN jsonb_typeof("agentState") = 'object' THEN "agentState" ELSE '{}'::jsonb END${removed}) || $1::jsonb, "updatedAt" = $2 WHERE "id" = $3`;
  }
  let state = `CASE WHEN json_valid("agentState") AND json_type("agentState") = 'object' THEN "agentState" ELSE '{}' END`;
  if (unset.length) state = `json_remove(${state}, ${unset.map((k) => `'$.${k}'`).join(", ")})`;
  if (set.length) state = `json_set(${state}, ${set.map((k) => `'$.${k}', json(?)`).join(", ")})`;
  return `UPDATE "Conversation" SET "agentState" = ${state}, "updatedAt" = ? WHERE "id" = ?`;
}

/** Merges `set` into the harness state and removes the `unset` keys, in one statement (no read, so no lost update). */
export async function mergeAgentState({
  id,
  set,
  unset = [],
}: {
  id: string;
  set: Record<string, unknown>;
  unset?: readonly string[];
}): Promise<void> {
  const keys = Object.keys(set);
  const direct = sqliteDirect();
  if (direct)
    return direct.mergeAgentState(
      id,
      mergeAgentStateSql("sqlite", keys, unset),
      keys.map((k) => JSON.stringify(set[k])),
    );
  const db = await getDb();
  if (isPostgresUrl(databaseUrl()))
    await db.$executeRawUnsafe(mergeAgentStateSql("postgres", keys, unset), JSON.stringify(set), new Date(), id);
  else
    await db.$executeRawUnsafe(
      mergeAgentStateSql("sqlite", keys, unset),
      ...keys.map((k) => JSON.stringify(set[k])),
      new Date().toISOString().replace("Z", "+00:00"),
      id,
    );
}

/** Deletes the conversation (only while it has never held a message, with `onlyIfEmpty`); true when it did. */
export async function deleteConversation({
  id,
  onlyIfEmpty = false,
}: {
  id: string;
  onlyIfEmpty?: boolean;
}): Promise<boolean> {
  const db = await getDb();
  const result = await db.conversation.deleteMany({ where: { id, ...(onlyIfEmpty ? { messageSeq: 0 } : {}) } });
  forgetHistory(id);
  return result.count > 0;
}

/** Sets the title only if it is still `from` (a rename by the person in the meantime wins); true when it was set. */
export async function replaceTitle({ id, from, to }: { id: string; from: string; to: string }): Promise<boolean> {
  const db = await getDb();
  const result = await db.conversation.updateMany({ where: { id, title: from }, data: { title: to } });
  return result.count > 0;
}
