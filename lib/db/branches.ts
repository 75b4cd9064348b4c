// Queries for a conversation's branches (stored as lib/archived-branch.ts describes). Archiving the messages after an
// anchor moves their rows from Message to ArchivedMessage under a fresh key, and restoring moves another key's rows
// back, positions kept: set-based statements of at most BATCH rows, each pair in its own short transaction, so that no
// other request waits for a whole move (on SQLite a transaction holds the one writer lock, and better-sqlite3 runs
// every statement on the server's own thread), with a turn of the event loop between them. Meanwhile readers see a prefix of one alternative or of the other, never
// a mix (the tail is archived from its end, the other alternative restored from its start); replies wait for the move
// (the caller holds the reply lock). A last short transaction moves the records, the harness state and the message
// counter (so every history cache reloads).
import { randomUUID } from "node:crypto";
import { type ArchivedBranch, type BranchRecord, parseArchived, START_ANCHOR } from "../archived-branch.ts";
import { getDb } from "./client.ts";
import { forgetHistory } from "./history-cache.ts";

type Db = Awaited<ReturnType<typeof getDb>>;
type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** Rows moved per transaction: a few milliseconds of work each on SQLite. */
export const BRANCH_BATCH = 250;

// better-sqlite3 answers every query synchronously (as resolved promises): without a turn of the event loop between
// batches, no other request would be served until the whole move ends.
const yieldToOthers = () => new Promise((resolve) => setImmediate(resolve));

/**
 * What a branch operation does to the harness state: `watched` names the message ids the move depends on (they are
 * looked up, not the whole conversation); given the stored state and which of those are being archived, `move` gives
 * the state to store and what of it goes with the archived messages (their compression); `restored` is what the
 * alternative being restored carried.
 */
export type StateMove = {
  watched: (state: unknown) => string[];
  move: (
    state: unknown,
    archivedIds: ReadonlySet<string>,
    restored?: ArchivedBranch,
  ) => { state: object; carried?: unknown };
};

export type BranchFailure = "no-message" | "not-person" | "no-branch";

export async function listBranches({ conversationId }: { conversationId: string }): Promise<BranchRecord[]> {
  const db = await getDb();
  const rows = await db.messageBranch.findMany({
    where: { conversationId },
    select: { anchorId: true, ordinal: true, archived: true },
  });
  // Only whether each is archived matters here: the archived records are not parsed.
  return rows.map((r) => ({
    anchorId: r.anchorId,
    ordinal: r.ordinal,
    archived: r.archived === null ? null : { messages: [], nested: [] },
  }));
}

/**
 * Which alternative after `anchorId` is active: its ordinal (1, 2, … — the ‹ n/N › the person sees); 1 when there are
 * no alternatives there.
 */
export async function activeOrdinal({ conversationId, anchorId }: { conversationId: string; anchorId: string }) {
  const db = await getDb();
  const rows = await db.messageBranch.findMany({
    where: { conversationId, anchorId },
    select: { ordinal: true, archived: true },
  });
  return rows.find((r) => r.archived === null)?.ordinal ?? 1;
}

/** Moves the active messages from position `from` on to ArchivedMessage under `key`, the last ones first. */
async function archiveRows(db: Db, conversationId: string, from: number, key: string): Promise<void> {
  for (;;) {
    const edge = await db.message.findFirst({
      where: { conversationId, position: { gte: from } },
      orderBy: { position: "desc" },
      skip: BRANCH_BATCH - 1,
      select: { position: true },
    });
    const lo = edge?.position ?? from;
    await db.$transaction([
      db.$executeRaw`INSERT INTO "ArchivedMessage" ("conversationId", "branchKey", "id", "position", "role", "parts", "metadata", "status", "createdAt", "updatedAt")
        SELECT "conversationId", CAST(${key} AS TEXT), "id", "position", "role", "parts", "metadata", "status", "createdAt", "updatedAt" FROM "Message"
        WHERE "conversationId" = ${conversationId} AND "position" >= ${lo}`,
      db.$executeRaw`DELETE FROM "Message" WHERE "conversationId" = ${conversationId} AND "position" >= ${lo}`,
    ]);
    if (!edge) return;
    await yieldToOthers();
  }
}

/** Moves the messages archived under `key` back to Message, the first ones first. */
async function restoreRows(db: Db, conversationId: string, key: string): Promise<void> {
  for (;;) {
    const edge = await db.archivedMessage.findFirst({
      where: { conversationId, branchKey: key },
      orderBy: { position: "asc" },
      skip: BRANCH_BATCH - 1,
      select: { position: true },
    });
    const hi = edge?.position ?? 2_147_483_647;
    await db.$transaction([
      db.$executeRaw`INSERT INTO "Message" ("conversationId", "id", "position", "role", "parts", "metadata", "status", "createdAt", "updatedAt")
        SELECT "conversationId", "id", "position", "role", "parts", "metadata", "status", "createdAt", "updatedAt" FROM "ArchivedMessage"
        WHERE "conversationId" = ${conversationId} AND "branchKey" = ${key} AND "position" <= ${hi}`,
      db.$executeRaw`DELETE FROM "ArchivedMessage" WHERE "conversationId" = ${conversationId} AND "branchKey" = ${key} AND "position" <= ${hi}`,
    ]);
    if (!edge) return;
    await yieldToOthers();
  }
}

async function positionAfterAnchor(db: Db | Tx, conversationId: string, anchorId: string): Promise<number | null> {
  if (anchorId === START_ANCHOR) return 0;
  const anchor = await db.message.findUnique({
    where: { conversationId_id: { conversationId, id: anchorId } },
    select: { position: true },
  });
  return anchor ? anchor.position + 1 : null;
}

async function storeArchived(
  tx: Tx,
  conversationId: string,
  anchorId: string,
  ordinal: number,
  archived: ArchivedBranch | null,
): Promise<void> {
  await tx.messageBranch.deleteMany({ where: { conversationId, anchorId, ordinal } });
  await tx.messageBranch.create({
    data: { conversationId, anchorId, ordinal, ...(archived ? { archived: stored(archived) } : {}) },
  });
}

/** The stored JSON of an archived alternative: its key (or, as archived before keys, its messages) and the rest. */
function stored(archived: ArchivedBranch): object {
  const { key, messages, nested, compression } = archived;
  return {
    ...(key !== undefined ? { key } : { messages }),
    nested: nested.map((r) => ({
      anchorId: r.anchorId,
      ordinal: r.ordinal,
      archived: r.archived && stored(r.archived),
    })),
    ...(compression !== undefined ? { compression } : {}),
  };
}

/**
 * After the rows of the alternative archived under `key` have moved: the alternatives anchored in them leave the
 * records (they are archived with it); the harness state moves (the counter past `added` restored positions, and once
 * more so that every history cache sees the change). The archived alternative, carrying its nested ones and its
 * compression.
 */
async function settleArchived(
  tx: Tx,
  conversationId: string,
  key: string,
  move: StateMove,
  restored?: ArchivedBranch,
  added = 0,
) {
  const records = await tx.messageBranch.findMany({ where: { conversationId } });
  const anchors = [...new Set(records.map((r) => r.anchorId).filter((a) => a !== START_ANCHOR))];
  const archivedAnchors = anchors.length
    ? new Set(
        (
          await tx.archivedMessage.findMany({
            where: { conversationId, branchKey: key, id: { in: anchors } },
            select: { id: true },
          })
        ).map((m) => m.id),
      )
    : new Set<string>();
  const nestedRows = records.filter((r) => archivedAnchors.has(r.anchorId));
  if (nestedRows.length)
    await tx.messageBranch.deleteMany({ where: { conversationId, anchorId: { in: [...archivedAnchors] } } });
  // A record whose stored alternative cannot be read is dropped (as it would be restored as nothing).
  const nested = nestedRows.flatMap((r): BranchRecord[] => {
    if (r.archived === null) return [{ anchorId: r.anchorId, ordinal: r.ordinal, archived: null }];
    const archived = parseArchived(r.archived);
    return archived ? [{ anchorId: r.anchorId, ordinal: r.ordinal, archived }] : [];
  });
  const conversation = await tx.conversation.findUnique({
    where: { id: conversationId },
    select: { agentState: true, messageSeq: true },
  });
  const state = conversation?.agentState ?? {};
  const watched = move.watched(state);
  const archivedIds = watched.length
    ? new Set(
        (
          await tx.archivedMessage.findMany({
            where: { conversationId, branchKey: key, id: { in: watched } },
            select: { id: true },
          })
        ).map((m) => m.id),
      )
    : new Set<string>();
  const { state: next, carried } = move.move(state, archivedIds, restored);
  await tx.conversation.update({
    where: { id: conversationId },
    data: { agentState: next, messageSeq: { increment: added + 1 } },
  });
  const archived: ArchivedBranch = {
    key,
    messages: [],
    nested,
    ...(carried !== undefined ? { compression: carried } : {}),
  };
  return { archived, nextPosition: conversation?.messageSeq ?? 0 };
}

/**
 * An edit or switch under way, kept on the conversation (`branchMove`) from before its first row moves until its last
 * transaction: the rows from `from` on go to `key`; then, for a switch, `restoreKey`'s rows come back.
 */
type Move = {
  from: number;
  key: string;
  restoreKey?: string;
  phase: "archive" | "restore";
  anchorId: string;
  /** The alternative being restored; none for an edit. */
  ordinal?: number;
};

function parseMove(value: unknown): Move | null {
  const m = value as Partial<Move> | null;
  if (
    typeof m !== "object" ||
    m === null ||
    typeof m.from !== "number" ||
    typeof m.key !== "string" ||
    typeof m.anchorId !== "string"
  )
    return null;
  return {
    from: m.from,
    key: m.key,
    anchorId: m.anchorId,
    phase: m.phase === "restore" ? "restore" : "archive",
    ...(typeof m.restoreKey === "string" ? { restoreKey: m.restoreKey } : {}),
    ...(typeof m.ordinal === "number" ? { ordinal: m.ordinal } : {}),
  };
}

/** Moves the rows as `move` says (again from where a dying server left them), then settles the records and the state. */
async function runMove(db: Db, conversationId: string, move: Move, stateMove: StateMove): Promise<void> {
  if (move.phase === "archive") {
    await archiveRows(db, conversationId, move.from, move.key);
    if (move.restoreKey !== undefined)
      await db.conversation.update({
        where: { id: conversationId },
        data: { branchMove: { ...move, phase: "restore" } },
      });
  }
  if (move.restoreKey !== undefined) await restoreRows(db, conversationId, move.restoreKey);
  await db.$transaction(async (tx) => {
    const records = await tx.messageBranch.findMany({
      where: { conversationId, anchorId: move.anchorId },
      select: { ordinal: true, archived: true },
    });
    const active = records.find((r) => r.archived === null);
    const target = move.ordinal === undefined ? undefined : records.find((r) => r.ordinal === move.ordinal);
    const restoring = (target?.archived != null ? parseArchived(target.archived) : null) ?? undefined;
    const { archived, nextPosition } = await settleArchived(
      tx,
      conversationId,
      move.key,
      stateMove,
      restoring,
      restoring?.messages.length ?? 0,
    );
    if (move.ordinal === undefined) {
      // An edit: the archived alternative keeps the active one's ordinal; a new, empty one follows.
      const activeOrdinal = active?.ordinal ?? 1;
      await storeArchived(tx, conversationId, move.anchorId, activeOrdinal, archived);
      await storeArchived(
        tx,
        conversationId,
        move.anchorId,
        Math.max(activeOrdinal, ...records.map((r) => r.ordinal)) + 1,
        null,
      );
    } else {
      if (active) await storeArchived(tx, conversationId, move.anchorId, active.ordinal, archived);
      // An alternative archived before ArchivedMessage existed holds its messages: they take the next positions.
      if (restoring?.messages.length) {
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
      }
      for (const r of restoring?.nested ?? [])
        await storeArchived(tx, conversationId, r.anchorId, r.ordinal, r.archived);
      await storeArchived(tx, conversationId, move.anchorId, move.ordinal, null);
    }
    await tx.$executeRaw`UPDATE "Conversation" SET "branchMove" = NULL WHERE "id" = ${conversationId}`;
  });
  forgetHistory(conversationId);
}

/** Starts `move`: recorded on the conversation first, so that a server dying mid-way leaves it to be finished. */
async function startMove(db: Db, conversationId: string, move: Move, stateMove: StateMove): Promise<void> {
  await db.conversation.update({ where: { id: conversationId }, data: { branchMove: move } });
  await runMove(db, conversationId, move, stateMove);
}

/** Whether an edit or switch of the conversation was cut short (one running now counts too: hold the reply lock). */
export async function hasUnfinishedBranchMove({ conversationId }: { conversationId: string }): Promise<boolean> {
  const db = await getDb();
  const row = await db.conversation.findUnique({ where: { id: conversationId }, select: { branchMove: true } });
  return row?.branchMove != null;
}

/** Finishes an edit or switch cut short by a dying server. The caller holds the conversation's reply lock. */
export async function finishBranchMove({
  conversationId,
  move,
}: {
  conversationId: string;
  move: StateMove;
}): Promise<boolean> {
  const db = await getDb();
  const row = await db.conversation.findUnique({ where: { id: conversationId }, select: { branchMove: true } });
  const unfinished = parseMove(row?.branchMove ?? null);
  if (!unfinished) return false;
  await runMove(db, conversationId, unfinished, move);
  return true;
}

/**
 * The person edits their message `messageId`: it and everything after it become an archived alternative, and a new,
 * empty active alternative follows the same anchor (the caller appends the new message to it). The anchor, or why not.
 * The caller holds the conversation's reply lock.
 */
export async function branchForEdit({
  conversationId,
  messageId,
  move,
}: {
  conversationId: string;
  messageId: string;
  move: StateMove;
}): Promise<{ anchorId: string } | BranchFailure> {
  const db = await getDb();
  await finishBranchMove({ conversationId, move });
  const edited = await db.message.findUnique({
    where: { conversationId_id: { conversationId, id: messageId } },
    select: { position: true, role: true },
  });
  if (!edited) return "no-message";
  if (edited.role !== "user") return "not-person";
  const before = await db.message.findFirst({
    where: { conversationId, position: { lt: edited.position } },
    orderBy: { position: "desc" },
    select: { id: true },
  });
  const anchorId = before?.id ?? START_ANCHOR;
  await startMove(db, conversationId, { from: edited.position, key: randomUUID(), phase: "archive", anchorId }, move);
  return { anchorId };
}

/**
 * The person regenerates the reply to their latest message `messageId`: what follows it becomes an archived
 * alternative, and a new, empty active one follows it (the caller appends the new reply). False when nothing follows
 * it (nothing to keep). The caller holds the conversation's reply lock.
 */
export async function branchForRetry({
  conversationId,
  messageId,
  move,
}: {
  conversationId: string;
  messageId: string;
  move: StateMove;
}): Promise<boolean | BranchFailure> {
  const db = await getDb();
  await finishBranchMove({ conversationId, move });
  const anchor = await db.message.findUnique({
    where: { conversationId_id: { conversationId, id: messageId } },
    select: { position: true, role: true },
  });
  if (!anchor) return "no-message";
  if (anchor.role !== "user") return "not-person";
  const next = await db.message.findFirst({
    where: { conversationId, position: { gt: anchor.position } },
    select: { id: true },
  });
  if (!next) return false;
  await startMove(
    db,
    conversationId,
    { from: anchor.position + 1, key: randomUUID(), phase: "archive", anchorId: messageId },
    move,
  );
  return true;
}

/**
 * Makes alternative `ordinal` after `anchorId` the active one (the active one is archived); why not, if it cannot.
 * The caller holds the conversation's reply lock.
 */
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
  await finishBranchMove({ conversationId, move });
  const target = await db.messageBranch.findUnique({
    where: { conversationId_anchorId_ordinal: { conversationId, anchorId, ordinal } },
  });
  if (!target) return "no-branch";
  if (target.archived === null) return "already";
  const from = await positionAfterAnchor(db, conversationId, anchorId);
  if (from === null) return "no-branch";
  const restoreKey = parseArchived(target.archived)?.key;
  await startMove(
    db,
    conversationId,
    {
      from,
      key: randomUUID(),
      phase: "archive",
      anchorId,
      ordinal,
      ...(restoreKey !== undefined ? { restoreKey } : {}),
    },
    move,
  );
  return "switched";
}
