// What a reply's step reads, in one statement: the conversation's settings, mode and harness state, its workspace's
// revisions and view keys (as workspace-views.ts reads them), its tasks, and a summary of its children (a finished
// child's run without its answer, which can be long). One round trip on PostgreSQL, one prepared statement on SQLite,
// however many tasks and children there are — and the person's queued next-step messages (steers), in order.
import { databaseUrl, getDb, isPostgresUrl, sqliteDirect } from "./client.ts";
import type { TaskRow } from "./rows.ts";
import { readJson, readTime } from "./sqlite-direct-rows.ts";
import { WORKSPACE_STATUS_FROM, WORKSPACE_STATUS_SELECT } from "./sqlite-direct.ts";
import { type ChildRecord, childrenOf } from "./subagents.ts";
import { type WorkspaceViewStatus, workspaceStatusOf } from "./workspace-views.ts";
import { DEFAULT_WORKSPACE_ID } from "./workspaces.ts";

export type StepStateRow = {
  settings: unknown;
  agentState: unknown;
  mode: string;
  parentId: string | null;
  /** The workspace's revisions and the conversation's view keys, as workspaceViewStatus reads them. */
  workspace: WorkspaceViewStatus;
  tasks: TaskRow[];
  children: ChildRecord[];
  /** The conversation's queued next-step messages, in order (lib/db/queued-messages.ts takes them). */
  steers: QueuedSteer[];
};

export type QueuedSteer = { id: string; position: number; message: unknown };

const TASK_FIELDS = [
  "id",
  "subject",
  "description",
  "status",
  "owner",
  "blocks",
  "blockedBy",
  "metadata",
  "position",
  "createdAt",
  "updatedAt",
];
const JSON_TASK_FIELDS = new Set(["blocks", "blockedBy", "metadata"]);
const CHILD_FIELDS = [
  "id",
  "parentId",
  "workspaceId",
  "agentKey",
  "agentStatus",
  "agentBackground",
  "agentPending",
  "createdAt",
  "updatedAt",
];
// A running child's whole run record; a finished one's without its answer and error (read when told): its run's name
// and times are what a step decides by.
const RUN_SUMMARY = ["agentId", "label", "replyId", "startedAt", "endedAt"];
const POSTGRES_CHILD_RUN = `CASE WHEN k."agentStatus" = 'running' THEN k."agentRun" ELSE jsonb_build_object(${RUN_SUMMARY.map((f) => `'${f}', k."agentRun"->'${f}'`).join(", ")}) END`;
const SQLITE_CHILD_RUN = `CASE WHEN k."agentStatus" = 'running' THEN json(k."agentRun") ELSE json_object(${RUN_SUMMARY.map((f) => `'${f}', json_extract(k."agentRun", '$.${f}')`).join(", ")}) END`;

const STEER = `'id', q."id", 'position', q."position", 'message', q."message"`;
const STEER_WHERE = `q."conversationId" = c."id" AND q."status" = 'queued' AND q."when" = 'next-step'`;

function postgresSql(): string {
  const task = TASK_FIELDS.map((f) => `'${f}', t."${f}"`).join(", ");
  const child = [...CHILD_FIELDS.map((f) => `'${f}', k."${f}"`), `'agentRun', ${POSTGRES_CHILD_RUN}`].join(", ");
  return `SELECT c."settings" AS "settings", c."agentState" AS "agentState", c."mode" AS "mode", c."parentId" AS "parentId", ${WORKSPACE_STATUS_SELECT},
  (SELECT COALESCE(json_agg(json_build_object(${task}) ORDER BY t."position"), '[]'::json) FROM "Task" t WHERE t."conversationId" = c."id") AS "tasks",
  (SELECT COALESCE(json_agg(json_build_object(${child}) ORDER BY k."createdAt", k."id"), '[]'::json) FROM "Conversation" k WHERE k."parentId" = c."id") AS "children",
  (SELECT COALESCE(json_agg(json_build_object(${STEER}) ORDER BY q."position", q."id"), '[]'::json) FROM "QueuedMessage" q WHERE ${STEER_WHERE}) AS "steers"
  ${WORKSPACE_STATUS_FROM.replace("?", "$1").replace("?", "$2")}`;
}

function sqliteSql(): string {
  const task = TASK_FIELDS.map((f) => `'${f}', ${JSON_TASK_FIELDS.has(f) ? `json(t."${f}")` : `t."${f}"`}`).join(", ");
  const child = [...CHILD_FIELDS.map((f) => `'${f}', k."${f}"`), `'agentRun', ${SQLITE_CHILD_RUN}`].join(", ");
  return `SELECT c."settings" AS "settings", c."agentState" AS "agentState", c."mode" AS "mode", c."parentId" AS "parentId", ${WORKSPACE_STATUS_SELECT},
  (SELECT COALESCE(json_group_array(json_object(${task})), '[]') FROM (SELECT * FROM "Task" WHERE "conversationId" = c."id" ORDER BY "position") t) AS "tasks",
  (SELECT COALESCE(json_group_array(json_object(${child})), '[]') FROM (SELECT * FROM "Conversation" WHERE "parentId" = c."id" ORDER BY "createdAt", "id") k) AS "children",
  (SELECT COALESCE(json_group_array(json_object('id', q."id", 'position', q."position", 'message', json(q."message"))), '[]') FROM (SELECT * FROM "QueuedMessage" q WHERE ${STEER_WHERE} ORDER BY "position", "id") q) AS "steers"
  ${WORKSPACE_STATUS_FROM}`;
}

const POSTGRES_SQL = postgresSql();
const SQLITE_SQL = sqliteSql();

/** A time from a JSON column: PostgreSQL writes a timestamp without its zone (stored as UTC), SQLite as it stored it. */
function utcTime(value: unknown): Date {
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(value))
    return new Date(`${value}Z`);
  return readTime(value);
}

const list = (value: unknown): Record<string, unknown>[] => {
  const parsed = readJson(value);
  return Array.isArray(parsed) ? parsed : [];
};

function toTaskRow(conversationId: string, t: Record<string, unknown>): TaskRow {
  return {
    conversationId,
    id: String(t.id),
    subject: String(t.subject),
    description: String(t.description ?? ""),
    status: String(t.status),
    owner: typeof t.owner === "string" ? t.owner : null,
    blocks: readJson(t.blocks),
    blockedBy: readJson(t.blockedBy),
    metadata: readJson(t.metadata),
    position: Number(t.position),
    createdAt: utcTime(t.createdAt),
    updatedAt: utcTime(t.updatedAt),
  };
}

type RawRow = Record<string, unknown>;

/** The step's state of conversation `conversationId`, or null when it does not exist (any more). */
export async function readStepState({ conversationId }: { conversationId: string }): Promise<StepStateRow | null> {
  const direct = sqliteDirect();
  let row: RawRow | undefined;
  if (direct) row = direct.get(SQLITE_SQL, DEFAULT_WORKSPACE_ID, conversationId);
  else {
    const db = await getDb();
    const text = isPostgresUrl(databaseUrl()) ? POSTGRES_SQL : SQLITE_SQL;
    row = (await db.$queryRawUnsafe<RawRow[]>(text, DEFAULT_WORKSPACE_ID, conversationId))[0];
  }
  if (!row) return null;
  const children = childrenOf(
    list(row.children).map((k) => ({
      ...(k as {
        id: string;
        parentId: string;
        workspaceId: string;
        agentKey: string;
        agentStatus: string;
        agentRun: unknown;
      }),
      agentBackground: k.agentBackground === true || k.agentBackground === 1,
      agentPending: k.agentPending === true || k.agentPending === 1,
      agentRun: readJson(k.agentRun),
      createdAt: utcTime(k.createdAt),
      updatedAt: utcTime(k.updatedAt),
    })),
  );
  return {
    settings: readJson(row.settings),
    agentState: readJson(row.agentState),
    mode: String(row.mode),
    parentId: typeof row.parentId === "string" ? row.parentId : null,
    workspace: workspaceStatusOf(row as Parameters<typeof workspaceStatusOf>[0]),
    tasks: list(row.tasks).map((t) => toTaskRow(conversationId, t)),
    children,
    steers: list(row.steers).map((q) => ({
      id: String(q.id),
      position: Number(q.position),
      message: readJson(q.message),
    })),
  };
}
