// Pure converters from stored rows to the API's shapes. Stored JSON is treated as untrusted: anything malformed
// is dropped or defaulted rather than crashing a page.
import type { ChatMessage, ChatMessagePart, ConversationSummary, MessageStatus } from "../chat-message.ts";
import type { MessageRow } from "./rows.ts";

const STATUSES: readonly MessageStatus[] = ["complete", "streaming", "incomplete", "error"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function toMessageParts(value: unknown): ChatMessagePart[] {
  if (!Array.isArray(value)) return [];
  return value.filter((p): p is ChatMessagePart => isRecord(p) && typeof p.type === "string");
}

export function toChatMessage(row: MessageRow): ChatMessage {
  const role = row.role === "user" || row.role === "assistant" || row.role === "system" ? row.role : "assistant";
  const metadata = isRecord(row.metadata) ? { ...row.metadata } : {};
  const status = STATUSES.includes(row.status as MessageStatus) ? (row.status as MessageStatus) : "complete";
  return {
    id: row.id,
    role,
    parts: toMessageParts(row.parts),
    metadata: {
      ...metadata,
      createdAt: row.createdAt.toISOString(),
      ...(status === "complete" ? {} : { status }),
    },
  };
}

export function toConversationSummary(row: {
  id: string;
  workspaceId: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
  pinned?: unknown;
  archived?: unknown;
}): ConversationSummary {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    // Defensive: SQLite read directly gives 0/1.
    pinned: row.pinned === true || row.pinned === 1,
    archived: row.archived === true || row.archived === 1,
  };
}
