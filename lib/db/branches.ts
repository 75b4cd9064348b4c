// Queries for a conversation's branches (stored as lib/archived-branch.ts describes): archiving the messages after an anchor as one
// alternative and restoring another, each in one transaction that also moves the conversation's message counter (so
// every history cache reloads) and its harness state.
import { type ArchivedBranch, type ArchivedMessage, type BranchRecord, parseArchived, START_ANCHOR } from "../archived-branch.ts";
import { getDb, LONG_TRANSACTION } from "./client.ts";
import { forgetHistory } from "./history-cache.ts";

type Db = Awaited<ReturnType<typeof getDb>>;
type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * What a branch operation does to the harness state: given the stored state and the ids being archived, the state to
 * store and what of it goes with the archived messages (their compression); `restored` is what the alternative being
 * restored carried.
 */
export type StateMove = (state: unknown, archivedIds: ReadonlySet<string>, restored?: ArchivedBranch) => { state: object; carried?: unknown };

export type BranchFailure = "no-message" | "not-person" | "no-branch";

export async function listBranches({ conversationId }: { conversationId: string }): Promise<BranchRecord[]> {
  const db = await getDb();
  const rows = await db.messageBranch.findMany({ where: { conversationId }, select: { anchorId: true, ordinal: true, archived: true } });
  // Only whether each is archived matters here: the archived messages are not parsed.
  return rows.map((r) => ({ anchorId: r.anchorId, ordinal: r.ordinal, archived: r.archived === null ? null : { messages: [], nested: [] } }));
}

const toArchived = (row: { id: string; role: string; parts: unknown; metadata: unknown; status: string; createdAt: Date }): ArchivedMessage => ({
  id: row.id,
  role: row.role,
  parts: row.parts,
  metadata: row.metadata,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
});

/** Removes the messages from `fromPosition` on, with the alternatives anchored in them; returns them as one alternative. */
async function archiveFrom(tx: Tx, conversationId: string, fromPosition: number): Promise<ArchivedBranch> {
  const rows = await tx.message.findMany({ where: { conversationId, position: { gte: fromPosition } }, orderBy: { position: "asc" } });
  const ids = rows.map((r) => r.id);
  const nestedRows = ids.length ? await tx.messageBranch.findMany({ where: { conversationId, anchorId: { in: ids } } }) : [];
  if (ids.length) await tx.messageBranch.deleteMany({ where: { conversationId, anchorId: { in: ids } } });
  await tx.message.deleteMany({ where: { conversationId, position: { gte: fromPosition } } });
  const nested = nestedRows.map((r) => ({ anchorId: r.anchorId, ordinal: r.ordinal, archived: r.archived === null ? null : parseArchived(r.archived) }));
  return { messages: rows.map(toArchived), nested: nested.filter((r): r is BranchRecord => r.archived !== undefined) };
}

async function positionAfterAnchor(tx: Tx, conversationId: string, anchorId: string): Promise<number | null> {
  if (anchorId === START_ANCHOR) return 0;
  const anchor = await tx.message.findUnique({ where: { conversationId_id: { conversationId, id: anchorId } }, select: { position: true } });
  return anchor ? anchor.position + 1 : null;
}

async function storeArchived(tx: Tx, conversationId: string, anchorId: string, ordinal: number, archived: ArchivedBranch | null): Promise<void> {
  await tx.messageBranch.deleteMany({ where: { conversationId, anchorId, ordinal } });
  await tx.messageBranch.create({ data: { conversationId, anchorId, ordinal, ...(archived ? { archived: archived as object } : {}) } });
}

async function moveState(tx: Tx, conversationId: string, archived: ArchivedBranch, move: StateMove, restored?: ArchivedBranch, added = 0) {
  const conversation = await tx.conversation.findUnique({ where: { id: conversationId }, select: { agentState: true, messageSeq: true } });
  const { state, carried } = move(conversation?.agentState ?? {}, new Set(archived.messages.map((m) => m.id)), restored);
  // The counter moves past any restored position, and once more so that every history cache sees the change.
  await tx.conversation.update({ where: { id: conversationId }, data: { agentState: state, messageSeq: { increment: added + 1 } } });
  return { carried, nextPosition: conversation?.messageSeq ?? 0 };
}

/**
 * The person edits their message `messageId`: it and everything after it become an archived alternative, and a new,
 * empty active alternative follows the same anchor (the caller appends the new message to it). The anchor, or why not.
 */
export async function branchForEdit({ conversationId, messageId, move }: { conversationId: string; messageId: string; move: StateMove }): Promise<{ anchorId: string } | BranchFailure> {
  const db = await getDb();
  const result = await db.$transaction(async (tx) => {
    const edited = await tx.message.findUnique({ where: { conversationId_id: { conversationId, id: messageId } }, select: { position: true, role: true } });
    if (!edited) return "no-message" as const;
    if (edited.role !== "user") return "not-person" as const;
    const before = await tx.message.findFirst({ where: { conversationId, position: { lt: edited.position } }, orderBy: { position: "desc" }, select: { id: true } });
    const anchorId = before?.id ?? START_ANCHOR;
    const existing = await tx.messageBranch.findMany({ where: { conversationId, anchorId }, select: { ordinal: true, archived: true } });
    const archived = await archiveFrom(tx, conversationId, edited.position);
    const { carried } = await moveState(tx, conversationId, archived, move);
    const activeOrdinal = existing.find((r) => r.archived === null)?.ordinal ?? 1;
    const next = Math.max(activeOrdinal, ...existing.map((r) => r.ordinal)) + 1;
    await storeArchived(tx, conversationId, anchorId, activeOrdinal, { ...archived, ...(carried !== undefined ? { compression: carried } : {}) });
    await storeArchived(tx, conversationId, anchorId, next, null);
    return { anchorId };
  }, LONG_TRANSACTION);
  forgetHistory(conversationId);
  return result;
}

/** Makes alternative `ordinal` after `anchorId` the active one (the active one is archived); why not, if it cannot. */
export async function switchBranch({
  conversationId,
  anchorId,
  ordinal,
  move,
}: {
  conversationId: string;
  anchorId: string;
  ordinal: number;
  move: StateMove;
}): Promise<"switched" | "already" | BranchFailure> {
  const db = await getDb();
  const result = await db.$transaction(async (tx) => {
    const records = await tx.messageBranch.findMany({ where: { conversationId, anchorId } });
    const target = records.find((r) => r.ordinal === ordinal);
    if (!target) return "no-branch" as const;
    if (target.archived === null) return "already" as const;
    const from = await positionAfterAnchor(tx, conversationId, anchorId);
    if (from === null) return "no-branch" as const;
    const restoring = parseArchived(target.archived) ?? { messages: [], nested: [] };
    const archived = await archiveFrom(tx, conversationId, from);
    const { carried, nextPosition } = await moveState(tx, conversationId, archived, move, restoring, restoring.messages.length);
    const active = records.find((r) => r.archived === null);
    if (active) await storeArchived(tx, conversationId, anchorId, active.ordinal, { ...archived, ...(carried !== undefined ? { compression: carried } : {}) });
    await tx.message.createMany({
      data: restoring.messages.map((m, i) => ({
        conversationId,
        id: m.id,
        position: nextPosition + i,
        role: m.role,
        parts: m.parts as object,
        metadata: (m.metadata ?? {}) as object,
        status: m.status,
        createdAt: new Date(m.createdAt),
      })),
    });
    for (const r of restoring.nested) await storeArchived(tx, conversationId, r.anchorId, r.ordinal, r.archived);
    await storeArchived(tx, conversationId, anchorId, ordinal, null);
    return "switched" as const;
  }, LONG_TRANSACTION);
  forgetHistory(conversationId);
  return result;
}
