// A turn's queries, and an import's rows, on SQLite as plain prepared statements on Prisma's own connection. Prisma
// spends about a millisecond of CPU on every query (planning, interpreting, preparing a fresh statement each time); a
// turn makes seven of them around its first model call, most of what Hintline added to the time to first token, and
// an import of 2,000 messages spent 0.3 s in it. These statements write exactly what Prisma writes (timestamps as ISO
// text with "+00:00", JSON as text) and return Prisma's row shapes, so each path reads the other's rows
// (tests/db/sqlite-direct.test.ts holds them to it).
//
// better-sqlite3 is synchronous, so a statement here runs whole between two turns of the event loop. It only runs
// while no Prisma transaction is open on the connection (its statements would join that transaction); then the
// caller takes the Prisma path, which waits its turn.
import type BetterSqlite3 from "better-sqlite3";
import type { ConversationRow, ImportedRows, McpServerStoredRow, MessageRow, TaskRow } from "./rows.ts";
import {
  type ConversationMcpToolsStoredRow,
  type Row,
  readJson,
  readTime,
  storedTime,
  toConversationMcpToolsRow,
  toConversationRow,
  toMcpServerRow,
  toMessageRow,
  toTaskRow,
  writeJson,
} from "./sqlite-direct-rows.ts";

type Connection = BetterSqlite3.Database;

/** How long one transaction of an import's messages should take (its commit included). */
const IMPORT_SLICE_MS = 8;
type Statement = BetterSqlite3.Statement;

export type NewMessageRow = Pick<MessageRow, "id" | "role" | "parts" | "metadata" | "status"> & { createdAt?: Date };
export type WorkspaceStatusRow = {
  workspaceId: string;
  ownerId: string | null;
  ws: number;
  def: number | null;
  usr: number | null;
  frozenId: string | null;
  seenRevision: string | null;
};

/**
 * A conversation's workspace revisions and its view's keys ("?" 1: the default workspace's id, 2: the conversation's):
 * its workspace's, its owner's default workspace's ("default" for no owner) and its owner's own level's
 * (lib/db/ownership.ts), the places its skills and agents come from.
 */
export const WORKSPACE_STATUS_SELECT = `c."workspaceId" AS "workspaceId", c."ownerId" AS "ownerId", w."revision" AS "ws", d."revision" AS "def", u."revision" AS "usr",
  v."frozenId" AS "frozenId", v."seenRevision" AS "seenRevision"`;
export const WORKSPACE_STATUS_FROM = `FROM "Conversation" c JOIN "Workspace" w ON w."id" = c."workspaceId"
  LEFT JOIN "Workspace" d ON d."id" = CASE WHEN c."ownerId" IS NULL THEN ?
    ELSE (SELECT x."id" FROM "Workspace" x WHERE x."ownerId" = c."ownerId" AND x."name" = 'default' LIMIT 1) END
  LEFT JOIN "Workspace" u ON u."id" = 'user-' || c."ownerId"
  LEFT JOIN "ConversationWorkspace" v ON v."conversationId" = c."id" WHERE c."id" = ?`;
export const WORKSPACE_STATUS_SQL = `SELECT ${WORKSPACE_STATUS_SELECT}
  ${WORKSPACE_STATUS_FROM}`;

export class SqliteDirect {
  readonly #connection: Connection;
  readonly #statements = new Map<string, Statement>();

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  /** Prepared once per connection; plain numbers, not the BigInts Prisma asks the connection for. */
  #statement(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#connection.prepare(sql);
      if (statement.reader) statement.safeIntegers(false);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
  /** One row of a read a caller composed (its own module holds the text); undefined when there is none. */
  get(sql: string, ...params: unknown[]): Record<string, unknown> | undefined {
    return this.#statement(sql).get(...params) as Record<string, unknown> | undefined;
  }

  conversation(id: string): ConversationRow | null {
    const row = this.#statement(`SELECT * FROM "Conversation" WHERE "id" = ?`).get(id) as Row | undefined;
    return row ? toConversationRow(row) : null;
  }

  /** Creates the conversation unless it exists (a read is all an existing one costs); the stored row either way. */
  ensureConversation(
    id: string,
    settings: object,
    mode = "build",
    workspaceId = "default",
    model: string | null = null,
    ownerId: string | null = null,
  ): ConversationRow {
    const existing = this.conversation(id);
    if (existing) return existing;
    const now = storedTime(new Date());
    const created = this.#statement(
      `INSERT INTO "Conversation" ("id", "workspaceId", "settings", "mode", "model", "ownerId", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("id") DO NOTHING RETURNING *`,
    ).get(id, workspaceId, writeJson(settings), mode, model, ownerId, now, now) as Row | undefined;
    return created ? toConversationRow(created) : this.conversation(id)!;
  }

  /** false when the conversation does not exist. */
  setAgentState(id: string, agentState: object): boolean {
    const sql = `UPDATE "Conversation" SET "agentState" = ?, "updatedAt" = ? WHERE "id" = ?`;
    return this.#statement(sql).run(writeJson(agentState), storedTime(new Date()), id).changes > 0;
  }

  /** `sql`: conversations.ts's merge of the harness state; `values`: each set key's value as JSON text. */
  mergeAgentState(id: string, sql: string, values: readonly string[]): void {
    this.#statement(sql).run(...values, storedTime(new Date()), id);
  }

  messages(conversationId: string): MessageRow[] {
    const rows = this.#statement(`SELECT * FROM "Message" WHERE "conversationId" = ? ORDER BY "position" ASC`).all(
      conversationId,
    );
    return (rows as Row[]).map(toMessageRow);
  }

  /** At most `limit` messages after position `after`, in order (one page of a long conversation). */
  messagesAfter(conversationId: string, after: number, limit: number): MessageRow[] {
    const sql = `SELECT * FROM "Message" WHERE "conversationId" = ? AND "position" > ? ORDER BY "position" ASC LIMIT ?`;
    return (this.#statement(sql).all(conversationId, after, limit) as Row[]).map(toMessageRow);
  }

  /** What tells whether a conversation's messages changed (see listMessages), or null when it does not exist. */
  messagesVersion(conversationId: string): { messageSeq: number; createdAt: Date; moving: boolean } | null {
    const sql = `SELECT "messageSeq", "createdAt", "branchMove" IS NOT NULL AS "moving" FROM "Conversation" WHERE "id" = ?`;
    const row = this.#statement(sql).get(conversationId) as Row | undefined;
    return row
      ? { messageSeq: Number(row.messageSeq), createdAt: readTime(row.createdAt), moving: Boolean(row.moving) }
      : null;
  }

  tasks(conversationId: string): TaskRow[] {
    const rows = this.#statement(`SELECT * FROM "Task" WHERE "conversationId" = ? ORDER BY "position" ASC`).all(
      conversationId,
    );
    return (rows as Row[]).map(toTaskRow);
  }

  /**
   * Appends the messages at the end of the conversation in one immediate transaction, moving its counter (and
   * renaming it when `title` is given). undefined when the conversation does not exist or a row is refused (a
   * message id already used): nothing is written, and the caller's Prisma path reports it as it always has.
   */
  appendMessages(conversationId: string, messages: readonly NewMessageRow[], title?: string): MessageRow[] | undefined {
    const now = new Date();
    const bump = this.#statement(
      title === undefined
        ? `UPDATE "Conversation" SET "messageSeq" = "messageSeq" + ?, "updatedAt" = ?, "memoryDueAt" = ? WHERE "id" = ? RETURNING "messageSeq"`
        : `UPDATE "Conversation" SET "messageSeq" = "messageSeq" + ?, "updatedAt" = ?, "memoryDueAt" = ?, "title" = ? WHERE "id" = ? RETURNING "messageSeq"`,
    );
    const insert = this.#statement(
      `INSERT INTO "Message" ("conversationId", "id", "position", "role", "parts", "metadata", "status", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const append = this.#connection.transaction((): MessageRow[] | undefined => {
      const args =
        title === undefined
          ? [messages.length, storedTime(now), storedTime(now), conversationId]
          : [messages.length, storedTime(now), storedTime(now), title, conversationId];
      const moved = bump.get(...args) as { messageSeq: number } | undefined;
      if (!moved) return undefined;
      const first = moved.messageSeq - messages.length;
      return messages.map((m, i) => {
        const parts = JSON.stringify(m.parts);
        const metadata = writeJson(m.metadata);
        const createdAt = m.createdAt ?? now;
        insert.run(
          conversationId,
          m.id,
          first + i,
          m.role,
          parts,
          metadata,
          m.status,
          storedTime(createdAt),
          storedTime(now),
        );
        // As read back: what JSON keeps of the parts, like the Prisma path returns.
        return {
          conversationId,
          id: m.id,
          position: first + i,
          role: m.role,
          parts: JSON.parse(parts),
          metadata: readJson(metadata),
          status: m.status,
          createdAt,
          updatedAt: now,
        };
      });
    });
    try {
      return append.immediate();
    } catch (error) {
      if (String((error as { code?: unknown }).code).startsWith("SQLITE_CONSTRAINT")) return undefined;
      throw error;
    }
  }

  /** Writes an imported conversation (see importConversations); false (nothing written) when a row is refused. */
  importConversation(rows: ImportedRows): Promise<boolean> {
    return this.importConversations([rows]);
  }

  /**
   * Writes imported conversations, all or nothing, in short immediate transactions with a turn of the event loop
   * between them (one transaction of 20,000 messages held every other request 0.75 s: the search index's triggers run
   * in it). The first writes the conversations, as children of themselves (so no list shows them and no one can write
   * to them), with their tasks and plan versions; then their messages, ~8 ms of rows at a time; the last makes them
   * conversations of their own. A failure deletes what was written. False (nothing written) when a row is refused.
   */
  async importConversations(imports: readonly ImportedRows[]): Promise<boolean> {
    const now = storedTime(new Date());
    const conversation = this.#statement(
      `INSERT INTO "Conversation" ("id", "title", "settings", "taskSeq", "messageSeq", "memoryFrom", "mode", "planSeq", "model", "pinned", "archived", "workspaceId", "ownerId", "parentId", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const plan = this.#statement(
      `INSERT INTO "PlanVersion" ("conversationId", "version", "content", "author", "createdAt") VALUES (?, ?, ?, ?, ?)`,
    );
    const task = this.#statement(
      `INSERT INTO "Task" ("conversationId", "id", "subject", "description", "status", "owner", "blocks", "blockedBy", "metadata", "position", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    try {
      await this.#immediate(() => {
        for (const { conversation: c, tasks, planVersions } of imports) {
          const flags = [c.pinned ? 1 : 0, c.archived ? 1 : 0];
          conversation.run(
            c.id,
            c.title,
            writeJson(c.settings),
            c.taskSeq,
            c.messageSeq,
            c.memoryFrom ?? 0,
            c.mode,
            c.planSeq,
            c.model ?? null,
            ...flags,
            c.workspaceId ?? "default",
            c.ownerId ?? null,
            c.id,
            now,
            now,
          );
          for (const v of planVersions) plan.run(c.id, v.version, v.content, v.author, storedTime(v.createdAt));
          for (const t of tasks) {
            const json = [t.blocks, t.blockedBy, t.metadata].map((v) => JSON.stringify(v));
            task.run(c.id, t.id, t.subject, t.description, t.status, t.owner, ...json, t.position, now, now);
          }
        }
      });
    } catch (error) {
      if (String((error as { code?: unknown }).code).startsWith("SQLITE_CONSTRAINT")) return false;
      throw error;
    }
    const ids = imports.map((rows) => rows.conversation.id);
    try {
      await this.#importMessages(imports, now);
      const reveal = this.#statement(`UPDATE "Conversation" SET "parentId" = NULL WHERE "id" = ?`);
      await this.#immediate(() => {
        for (const id of ids) reveal.run(id);
      });
    } catch (error) {
      const remove = this.#statement(`DELETE FROM "Conversation" WHERE "id" = ?`);
      await this.#immediate(() => {
        for (const id of ids) remove.run(id);
      });
      throw error;
    }
    return true;
  }

  /**
   * The imports' messages, as many rows per transaction as take ~8 ms with its commit (where the search index writes
   * what its triggers gathered: most of the time), the number adjusted by each transaction's time.
   */
  async #importMessages(imports: readonly ImportedRows[], now: string): Promise<void> {
    const message = this.#statement(
      `INSERT INTO "Message" ("conversationId", "id", "position", "role", "parts", "metadata", "status", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    let rows = 32;
    for (const { conversation: c, messages } of imports) {
      for (let next = 0; next < messages.length; ) {
        const slice = messages.slice(next, next + rows);
        const took = await this.#immediate(() => {
          for (const m of slice)
            message.run(
              c.id,
              m.id,
              m.position,
              m.role,
              JSON.stringify(m.parts),
              writeJson(m.metadata),
              m.status,
              now,
              now,
            );
        });
        next += slice.length;
        if (took < IMPORT_SLICE_MS / 2) rows *= 2;
        else if (took > IMPORT_SLICE_MS * 2) rows = Math.max(1, Math.floor(rows / 2));
      }
    }
  }

  /**
   * `write` in an immediate transaction of its own, on a later turn of the event loop and once no Prisma transaction
   * is open on the connection (its statements would join it); the milliseconds it took.
   */
  async #immediate(write: () => void): Promise<number> {
    do await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.#connection.inTransaction);
    const start = performance.now();
    this.#connection.transaction(write).immediate();
    return performance.now() - start;
  }

  /** lib/db/workspace-views.ts's status query (the same SQL), on this connection. */
  workspaceViewStatus(conversationId: string, defaultWorkspaceId: string): WorkspaceStatusRow | undefined {
    return this.#statement(WORKSPACE_STATUS_SQL).get(defaultWorkspaceId, conversationId) as
      | WorkspaceStatusRow
      | undefined;
  }

  putWorkspaceView(
    conversationId: string,
    view: { frozenId: string; frozen: object; seenRevision: string; seen: object },
  ): void {
    const sql = `INSERT INTO "ConversationWorkspace" ("conversationId", "frozenId", "frozen", "seenRevision", "seen") VALUES (?, ?, ?, ?, ?)
      ON CONFLICT ("conversationId") DO UPDATE SET "frozenId" = excluded."frozenId", "frozen" = excluded."frozen", "seenRevision" = excluded."seenRevision", "seen" = excluded."seen"`;
    this.#statement(sql).run(
      conversationId,
      view.frozenId,
      writeJson(view.frozen),
      view.seenRevision,
      writeJson(view.seen),
    );
  }

  /** Whether the conversation has any child (most never do: then a listing need not be made at all). */
  hasChildren(parentId: string): boolean {
    return this.#statement(`SELECT 1 FROM "Conversation" WHERE "parentId" = ? LIMIT 1`).get(parentId) !== undefined;
  }

  cacheBaselineVersion(conversationId: string): string | null {
    const row = this.#statement(`SELECT "version" FROM "CacheBaseline" WHERE "conversationId" = ?`).get(
      conversationId,
    ) as Row | undefined;
    return row ? String(row.version) : null;
  }

  /** Throws (a foreign key constraint) when the conversation is gone, as Prisma's upsert does. */
  putCacheBaseline(conversationId: string, version: string, data: object): void {
    const sql = `INSERT INTO "CacheBaseline" ("conversationId", "version", "data") VALUES (?, ?, ?)
      ON CONFLICT ("conversationId") DO UPDATE SET "version" = excluded."version", "data" = excluded."data"`;
    this.#statement(sql).run(conversationId, version, writeJson(data));
  }

  /** A workspace's MCP servers by name (asked twice before a reply's first model call, usually of none). */
  mcpServers(workspaceId: string): McpServerStoredRow[] {
    const rows = this.#statement(`SELECT * FROM "McpServer" WHERE "workspaceId" = ? ORDER BY "name" ASC`).all(
      workspaceId,
    ) as Row[];
    return rows.map(toMcpServerRow);
  }

  conversationMcpTools(conversationId: string): ConversationMcpToolsStoredRow | null {
    const sql = `SELECT "data", "revision", "stale", "toldChanges", "leftOut", "leftOutTold" FROM "ConversationMcpTools" WHERE "conversationId" = ?`;
    const row = this.#statement(sql).get(conversationId) as Row | undefined;
    return row ? toConversationMcpToolsRow(row) : null;
  }

  /**
   * Stores a conversation's MCP tool list (`data`: the list as JSON text, kept as a JSON string; `leftOut`: what it left
   * out, as plain text) unless it has one: false when it had. Throws (a foreign key constraint) when the conversation is
   * gone, as Prisma's create does.
   */
  createConversationMcpTools(
    conversationId: string,
    data: string,
    leftOut: string | null = null,
    leftOutTold = false,
  ): boolean {
    const sql = `INSERT INTO "ConversationMcpTools" ("conversationId", "data", "revision", "stale", "leftOut", "leftOutTold", "createdAt") VALUES (?, ?, 0, 0, ?, ?, ?)
      ON CONFLICT ("conversationId") DO NOTHING`;
    return (
      this.#statement(sql).run(conversationId, writeJson(data), leftOut, leftOutTold ? 1 : 0, storedTime(new Date()))
        .changes === 1
    );
  }

  /** The number of rows changed (0 or 1). */
  updateMessage(
    conversationId: string,
    id: string,
    change: { parts?: unknown; metadata?: unknown; status?: string },
    onlyWhileStreaming = false,
  ): number {
    const set: Array<[column: string, value: unknown]> = [];
    if (change.parts !== undefined) set.push(["parts", JSON.stringify(change.parts)]);
    if (change.metadata !== undefined) set.push(["metadata", writeJson(change.metadata)]);
    if (change.status !== undefined) set.push(["status", change.status]);
    set.push(["updatedAt", storedTime(new Date())]);
    const columns = set.map(([column]) => `"${column}" = ?`);
    const values = set.map(([, value]) => value);
    const streaming = onlyWhileStreaming ? ` AND "status" = 'streaming'` : "";
    const sql = `UPDATE "Message" SET ${columns.join(", ")} WHERE "conversationId" = ? AND "id" = ?${streaming}`;
    return this.#statement(sql).run(...values, conversationId, id).changes;
  }
}

const direct = new WeakMap<Connection, SqliteDirect>();
let enabled = true;

/** Tests turn the direct path off to exercise (and compare with) the Prisma path on SQLite. */
export function setSqliteDirectEnabled(value: boolean): void {
  enabled = value;
}

/** The direct queries on this connection when they may run right now: open, and no Prisma transaction on it. */
export function directQueriesOn(connection: Connection | undefined): SqliteDirect | undefined {
  if (!enabled || !connection?.open || connection.inTransaction) return undefined;
  let queries = direct.get(connection);
  if (!queries) {
    queries = new SqliteDirect(connection);
    direct.set(connection, queries);
  }
  return queries;
}
