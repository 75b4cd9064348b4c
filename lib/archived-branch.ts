// The stored shape of a conversation's alternatives (lib/agent/branches.ts has the rules, lib/db/branches.ts the
// queries): an archived alternative names the key of its messages (ArchivedMessage rows, moved there and back in bounded
// batches), with the alternatives that branched within it and the compression state that belonged to it. Alternatives
// archived before ArchivedMessage existed hold their messages whole instead, and are still restored. Stored JSON is
// read defensively.

/** A message as an archived alternative keeps it (a stored row, without its conversation and position). */
export type ArchivedMessage = {
  id: string;
  role: string;
  parts: unknown;
  metadata: unknown;
  status: string;
  createdAt: string;
};

export type BranchRecord = { anchorId: string; ordinal: number; archived: ArchivedBranch | null };

export type ArchivedBranch = {
  /** Its messages are the conversation's ArchivedMessage rows under this key. */
  key?: string;
  /** Its messages whole: only in alternatives archived before ArchivedMessage existed (`key` absent). */
  messages: ArchivedMessage[];
  /** Alternatives whose anchor is one of `messages` (archived with them, restored with them). */
  nested: BranchRecord[];
  /** The model context's compression state when it summarised part of `messages` (restored with them). */
  compression?: unknown;
};

/** The anchor of alternatives that start the conversation. */
export const START_ANCHOR = "";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A stored archived alternative, read defensively (malformed messages and records are dropped). */
export function parseArchived(value: unknown, depth = 0): ArchivedBranch | null {
  if (!isRecord(value) || depth > 50) return null;
  const key = typeof value.key === "string" && value.key ? value.key : undefined;
  if (key === undefined && !Array.isArray(value.messages)) return null;
  const messages = (key === undefined && Array.isArray(value.messages) ? value.messages : []).filter(
    (m): m is ArchivedMessage =>
      isRecord(m) &&
      typeof m.id === "string" &&
      typeof m.role === "string" &&
      Array.isArray(m.parts) &&
      typeof m.status === "string" &&
      typeof m.createdAt === "string",
  );
  const nested = Array.isArray(value.nested) ? value.nested.flatMap((r) => parseRecord(r, depth + 1) ?? []) : [];
  return {
    ...(key !== undefined ? { key } : {}),
    messages,
    nested,
    ...(value.compression !== undefined ? { compression: value.compression } : {}),
  };
}

export function parseRecord(value: unknown, depth = 0): BranchRecord | null {
  if (!isRecord(value) || typeof value.anchorId !== "string" || typeof value.ordinal !== "number") return null;
  if (value.archived === null) return { anchorId: value.anchorId, ordinal: value.ordinal, archived: null };
  const archived = parseArchived(value.archived, depth);
  return archived ? { anchorId: value.anchorId, ordinal: value.ordinal, archived } : null;
}
