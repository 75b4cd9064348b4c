// Rows as better-sqlite3 returns them, read (and values written) the way Prisma's SQLite adapter does: timestamps as
// ISO text with "+00:00", JSON as text, booleans as 0 and 1 (lib/db/sqlite-direct.ts).
import type { ConversationRow, McpServerStoredRow, MessageRow, TaskRow } from "./rows.ts";

export type Row = Record<string, unknown>;

const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
export const readBoolean = (value: unknown): boolean => value === 1 || value === true || value === 1n;

/** As Prisma's SQLite adapter stores a DateTime. */
export const storedTime = (date: Date): string => date.toISOString().replace("Z", "+00:00");

export function readTime(value: unknown): Date {
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value));
  const text = String(value);
  // SQLite's CURRENT_TIMESTAMP ("2026-11-30 15:01:00") carries no zone and means UTC.
  return new Date(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/.test(text) ? `${text.replace(" ", "T")}Z` : text);
}

export function readJson(value: unknown): unknown {
  if (typeof value !== "string") return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return null; // the converters default what they cannot read
  }
}

export const writeJson = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value);

export const toConversationRow = (r: Row): ConversationRow => ({
  id: String(r.id),
  workspaceId: String(r.workspaceId ?? "default"),
  title: String(r.title),
  settings: readJson(r.settings),
  agentState: readJson(r.agentState),
  taskSeq: Number(r.taskSeq),
  messageSeq: Number(r.messageSeq),
  mode: String(r.mode ?? "build"),
  planSeq: Number(r.planSeq ?? 0),
  model: r.model === null || r.model === undefined ? null : String(r.model),
  parentId: r.parentId === null || r.parentId === undefined ? null : String(r.parentId),
  ownerId: r.ownerId === null || r.ownerId === undefined ? null : String(r.ownerId),
  pinned: r.pinned === 1 || r.pinned === true,
  archived: r.archived === 1 || r.archived === true,
  createdAt: readTime(r.createdAt),
  updatedAt: readTime(r.updatedAt),
});

export const toMessageRow = (r: Row): MessageRow => ({
  conversationId: String(r.conversationId),
  id: String(r.id),
  position: Number(r.position),
  role: String(r.role),
  parts: readJson(r.parts),
  metadata: readJson(r.metadata),
  status: String(r.status),
  createdAt: readTime(r.createdAt),
  updatedAt: readTime(r.updatedAt),
});

export const toTaskRow = (r: Row): TaskRow => ({
  conversationId: String(r.conversationId),
  id: String(r.id),
  subject: String(r.subject),
  description: String(r.description),
  status: String(r.status),
  owner: r.owner === null || r.owner === undefined ? null : String(r.owner),
  blocks: readJson(r.blocks),
  blockedBy: readJson(r.blockedBy),
  metadata: readJson(r.metadata),
  position: Number(r.position),
  createdAt: readTime(r.createdAt),
  updatedAt: readTime(r.updatedAt),
});

export const toMcpServerRow = (r: Row): McpServerStoredRow => ({
  workspaceId: String(r.workspaceId),
  name: String(r.name),
  url: String(r.url),
  headers: readJson(r.headers),
  approval: String(r.approval),
  enabled: readBoolean(r.enabled),
  timeoutSeconds: r.timeoutSeconds === null || r.timeoutSeconds === undefined ? null : Number(r.timeoutSeconds),
  alwaysAllow: readJson(r.alwaysAllow),
  createdAt: readTime(r.createdAt),
  updatedAt: readTime(r.updatedAt),
});

export type ConversationMcpToolsStoredRow = {
  data: unknown;
  revision: number;
  stale: boolean;
  toldChanges: string | null;
  leftOut: string | null;
  leftOutTold: boolean;
};

export const toConversationMcpToolsRow = (r: Row): ConversationMcpToolsStoredRow => ({
  data: readJson(r.data),
  revision: Number(r.revision),
  stale: readBoolean(r.stale),
  toldChanges: textOrNull(r.toldChanges),
  leftOut: textOrNull(r.leftOut),
  leftOutTold: readBoolean(r.leftOutTold),
});
