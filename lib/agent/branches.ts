// Branches of a conversation, the pure part. Editing an earlier person message keeps what followed it: the old
// messages become an archived alternative of the new ones, both following the same anchor (the message before the
// edited one). The active alternative's messages are the conversation's rows, so the harness sees one linear
// history; an archived one is kept whole, with the alternatives that branched within it and the compression state
// that belonged to it.

/** A message as an archived alternative keeps it (a stored row, without its conversation and position). */
export type ArchivedMessage = { id: string; role: string; parts: unknown; metadata: unknown; status: string; createdAt: string };

export type BranchRecord = { anchorId: string; ordinal: number; archived: ArchivedBranch | null };

export type ArchivedBranch = {
  messages: ArchivedMessage[];
  /** Alternatives whose anchor is one of `messages` (archived with them, restored with them). */
  nested: BranchRecord[];
  /** The model context's compression state when it summarised part of `messages` (restored with them). */
  compression?: unknown;
};

/** The anchor of alternatives that start the conversation. */
export const START_ANCHOR = "";

/** Where the person sees ‹ index/count ›: on the first active message after the anchor. */
export type BranchPoint = { anchorId: string; messageId: string; index: number; count: number; ordinals: number[] };

/** The branch points of a conversation from its records and its active messages (in order). */
export function branchPoints(records: readonly BranchRecord[], activeIds: readonly string[]): BranchPoint[] {
  const byAnchor = new Map<string, BranchRecord[]>();
  for (const r of records) byAnchor.set(r.anchorId, [...(byAnchor.get(r.anchorId) ?? []), r]);
  const points: BranchPoint[] = [];
  for (const [anchorId, list] of byAnchor) {
    if (list.length < 2) continue;
    const at = anchorId === START_ANCHOR ? 0 : activeIds.indexOf(anchorId) + 1;
    const messageId = at > 0 || anchorId === START_ANCHOR ? activeIds[at] : undefined;
    const ordinals = list.map((r) => r.ordinal).sort((a, b) => a - b);
    const active = list.find((r) => r.archived === null);
    if (!messageId || !active) continue;
    points.push({ anchorId, messageId, index: ordinals.indexOf(active.ordinal) + 1, count: ordinals.length, ordinals });
  }
  return points.sort((a, b) => activeIds.indexOf(a.messageId) - activeIds.indexOf(b.messageId));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A stored archived alternative, read defensively (malformed messages and records are dropped). */
export function parseArchived(value: unknown, depth = 0): ArchivedBranch | null {
  if (!isRecord(value) || !Array.isArray(value.messages) || depth > 50) return null;
  const messages = value.messages.filter(
    (m): m is ArchivedMessage =>
      isRecord(m) && typeof m.id === "string" && typeof m.role === "string" && Array.isArray(m.parts) && typeof m.status === "string" && typeof m.createdAt === "string",
  );
  const nested = Array.isArray(value.nested) ? value.nested.flatMap((r) => parseRecord(r, depth + 1) ?? []) : [];
  return { messages, nested, ...(value.compression !== undefined ? { compression: value.compression } : {}) };
}

export function parseRecord(value: unknown, depth = 0): BranchRecord | null {
  if (!isRecord(value) || typeof value.anchorId !== "string" || typeof value.ordinal !== "number") return null;
  if (value.archived === null) return { anchorId: value.anchorId, ordinal: value.ordinal, archived: null };
  const archived = parseArchived(value.archived, depth);
  return archived ? { anchorId: value.anchorId, ordinal: value.ordinal, archived } : null;
}
