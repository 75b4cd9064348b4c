// Queries for subagents: a child is a Conversation row with `parentId`, its key in the parent ("agent:<id>:<n>"), its
// status, whether its current run went to the background (its answer then comes to the parent as a hint) and whether
// that answer still waits to be told (`agentPending`), and the rest of its run as JSON, read defensively.
import type { ChildStatus } from "../chat-message.ts";
import { databaseUrl, getDb, isPostgresUrl, lockedTransaction, sqliteDirect } from "./client.ts";
import { forgetHistory } from "./history-cache.ts";

const STATUSES: readonly ChildStatus[] = ["running", "done", "error", "stopped"];

/** What a child's run records beside its columns (lib/chat reads and writes it). */
export type ChildRun = {
  agentId: string;
  label?: string;
  /** The definition as spawned: later edits do not change a running child. */
  description?: string;
  instructions?: string;
  tools?: string[];
  model?: string;
  /** The model calls one reply of the child may make (absent: HINTLINE_MAX_STEPS). */
  maxSteps?: number;
  /** Of the current run. */
  startedAt?: string;
  endedAt?: string;
  /** Input and output tokens of every model call the child made, over all its runs. */
  tokens?: number;
  /** The child's reply of the current run. */
  replyId?: string;
  /** The current run's answer, cut (the whole is the child's last message). */
  answer?: string;
  error?: string;
  /** The last tool the child called. */
  lastTool?: string;
  /** The parent's AgentSpawn / AgentSend call that started the current run. */
  toolCallId?: string;
  /** That call's span (W3C traceparent), when the server traces: the run's reply is traced under it. */
  traceparent?: string;
};

export type ChildRecord = {
  id: string;
  parentId: string;
  workspaceId: string;
  agentKey: string;
  status: ChildStatus;
  background: boolean;
  pending: boolean;
  run: ChildRun;
  createdAt: string;
  updatedAt: string;
};

type Row = {
  id: string;
  parentId: string | null;
  workspaceId: string;
  agentKey: string | null;
  agentStatus: string | null;
  agentBackground: boolean;
  agentPending: boolean;
  agentRun: unknown;
  createdAt: Date;
  updatedAt: Date;
};

const SELECT = {
  id: true,
  parentId: true,
  workspaceId: true,
  agentKey: true,
  agentStatus: true,
  agentBackground: true,
  agentPending: true,
  agentRun: true,
  createdAt: true,
  updatedAt: true,
} as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === "string" ? v : undefined);

/** A run record as stored data or an import gives it: only the known fields of the right types. */
export function runOf(value: unknown): ChildRun {
  const r = isRecord(value) ? value : {};
  const tools =
    Array.isArray(r.tools) && r.tools.every((t) => typeof t === "string") ? (r.tools as string[]) : undefined;
  const run: ChildRun = { agentId: text(r.agentId) ?? "" };
  for (const key of [
    "label",
    "description",
    "instructions",
    "model",
    "startedAt",
    "endedAt",
    "replyId",
    "answer",
    "error",
    "lastTool",
    "toolCallId",
    "traceparent",
  ] as const) {
    const v = text(r[key]);
    if (v !== undefined) run[key] = v;
  }
  if (tools) run.tools = tools;
  if (typeof r.tokens === "number" && Number.isFinite(r.tokens) && r.tokens >= 0) run.tokens = r.tokens;
  if (typeof r.maxSteps === "number" && Number.isSafeInteger(r.maxSteps) && r.maxSteps >= 1) run.maxSteps = r.maxSteps;
  return run;
}

function toChild(row: Row): ChildRecord | null {
  if (!row.parentId || !row.agentKey) return null;
  const status = STATUSES.includes(row.agentStatus as ChildStatus) ? (row.agentStatus as ChildStatus) : "stopped";
  return {
    id: row.id,
    parentId: row.parentId,
    workspaceId: row.workspaceId,
    agentKey: row.agentKey,
    status,
    background: row.agentBackground,
    pending: row.agentPending,
    run: runOf(row.agentRun),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The rows that are children, as records (a row of another shape is left out). */
export const childrenOf = (rows: Row[]) => rows.map(toChild).filter((c): c is ChildRecord => c !== null);

/** A conversation's children, oldest first. */
export async function listChildren({ parentId }: { parentId: string }): Promise<ChildRecord[]> {
  const db = await getDb();
  // Asked before every step; on SQLite a conversation with no child (most) costs one plain statement, not a query.
  if (sqliteDirect()?.hasChildren(parentId) === false) return [];
  return childrenOf(
    await db.conversation.findMany({
      where: { parentId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: SELECT,
    }),
  );
}

export async function getChild({ id }: { id: string }): Promise<ChildRecord | null> {
  const db = await getDb();
  const row = await db.conversation.findUnique({ where: { id }, select: SELECT });
  return row ? toChild(row) : null;
}

/** How many conversations up the chain of parents from `id` (0: a person's conversation). */
export async function depthOf({ id }: { id: string }): Promise<number> {
  const db = await getDb();
  let depth = 0;
  let current: string | null = id;
  // A chain is at most a few links (HINTLINE_MAX_AGENT_DEPTH); the bound only guards against a corrupt loop.
  while (current && depth < 32) {
    const row: { parentId: string | null } | null = await db.conversation.findUnique({
      where: { id: current },
      select: { parentId: true },
    });
    current = row?.parentId ?? null;
    if (current) depth++;
  }
  return depth;
}

/**
 * Creates a running child of `parentId` under the parent's children lock: "busy" when `maxRunning` children run
 * already. Its key counts the parent's children of that agent from 1.
 */
export async function createChild({
  id,
  parentId,
  workspaceId,
  mode,
  settings,
  model,
  run,
  background,
  maxRunning,
}: {
  id: string;
  parentId: string;
  workspaceId: string;
  mode: string;
  settings: object;
  model: string | null;
  run: ChildRun;
  background: boolean;
  maxRunning: number;
}): Promise<{ child: ChildRecord; running: number } | { busy: number }> {
  return lockedTransaction(`children:${parentId}`, async (tx) => {
    const running = await tx.conversation.count({ where: { parentId, agentStatus: "running" } });
    if (running >= maxRunning) return { busy: running };
    const prefix = `agent:${run.agentId}:`;
    const siblings = await tx.conversation.findMany({
      where: { parentId, agentKey: { startsWith: prefix } },
      select: { agentKey: true },
    });
    const n = siblings.reduce((max, s) => Math.max(max, Number(s.agentKey?.slice(prefix.length)) || 0), 0) + 1;
    // A child belongs to whoever owns its parent (accounts mode).
    const parent = await tx.conversation.findUnique({ where: { id: parentId }, select: { ownerId: true } });
    const row = await tx.conversation.create({
      data: {
        id,
        parentId,
        ownerId: parent?.ownerId ?? null,
        workspaceId,
        mode,
        settings,
        model,
        title: run.label ?? `${prefix}${n}`,
        agentKey: `${prefix}${n}`,
        agentStatus: "running",
        agentBackground: background,
        agentPending: false,
        agentRun: run,
      },
      select: SELECT,
    });
    return { child: toChild(row)!, running: running + 1 };
  });
}

/**
 * Starts another run of a finished child (AgentSend): "busy" when `maxRunning` siblings run, "running" when it still
 * runs itself; otherwise the child, running again.
 */
export async function restartChild({
  id,
  parentId,
  run,
  background,
  maxRunning,
}: {
  id: string;
  parentId: string;
  run: ChildRun;
  background: boolean;
  maxRunning: number;
}): Promise<ChildRecord | { busy: number } | "running"> {
  return lockedTransaction(`children:${parentId}`, async (tx) => {
    const row = await tx.conversation.findUnique({ where: { id }, select: SELECT });
    if (row?.agentStatus === "running") return "running" as const;
    const running = await tx.conversation.count({ where: { parentId, agentStatus: "running" } });
    if (running >= maxRunning) return { busy: running };
    const updated = await tx.conversation.update({
      where: { id },
      data: { agentStatus: "running", agentBackground: background, agentPending: false, agentRun: run },
      select: SELECT,
    });
    return toChild(updated)!;
  });
}

/** Moves a running child's current run to the background; false when it is no longer running (its answer is in). */
export async function backgroundChild({ id }: { id: string }): Promise<boolean> {
  const db = await getDb();
  return (
    (await db.conversation.updateMany({ where: { id, agentStatus: "running" }, data: { agentBackground: true } }))
      .count > 0
  );
}

/**
 * Settles a running child's run: its status and run record; its answer waits to be told to the parent exactly when
 * the run went to the background. false when it was not running (settled already).
 */
export async function settleChild({
  id,
  status,
  run,
}: {
  id: string;
  status: Exclude<ChildStatus, "running">;
  run: ChildRun;
}): Promise<boolean> {
  const db = await getDb();
  // One statement, so that a run moved to the background just before it ended is told, and one that was not is not.
  const postgres = isPostgresUrl(databaseUrl());
  const sql = `UPDATE "Conversation" SET "agentStatus" = ${postgres ? "$1" : "?"}, "agentPending" = "agentBackground", "agentRun" = ${postgres ? "$2::jsonb" : "?"} WHERE "id" = ${postgres ? "$3" : "?"} AND "agentStatus" = 'running'`;
  return (await db.$executeRawUnsafe(sql, status, JSON.stringify(run), id)) > 0;
}

/** Makes an imported conversation the child `agentKey` of `parentId` (an import recreates its subagents so). */
export async function adoptChild({
  id,
  parentId,
  workspaceId,
  agentKey,
  status,
  run,
}: {
  id: string;
  parentId: string;
  workspaceId: string;
  agentKey: string;
  status: Exclude<ChildStatus, "running">;
  run: ChildRun;
}): Promise<void> {
  const db = await getDb();
  await db.conversation.update({
    where: { id },
    data: {
      parentId,
      workspaceId,
      agentKey,
      agentStatus: status,
      agentBackground: false,
      agentPending: false,
      agentRun: run,
    },
  });
}

/** Records the run as it goes (tokens, last tool) while the child runs. */
export async function updateChildRun({ id, run }: { id: string; run: ChildRun }): Promise<void> {
  const db = await getDb();
  await db.conversation.updateMany({ where: { id, agentStatus: "running" }, data: { agentRun: run } });
}

/** Every descendant of `id` (children, then theirs), deepest last. */
export async function descendantIds({ id }: { id: string }): Promise<string[]> {
  const db = await getDb();
  const found: string[] = [];
  let level = [id];
  for (let depth = 0; level.length && depth < 8; depth++) {
    const rows = await db.conversation.findMany({ where: { parentId: { in: level } }, select: { id: true } });
    level = rows.map((r) => r.id);
    found.push(...level);
  }
  return found;
}

/** After a parent was deleted (its children with it, by the foreign key): their histories leave the cache. */
export function forgetChildren(ids: readonly string[]): void {
  for (const id of ids) forgetHistory(id);
}
