// Queries for the tool calls that wait for the person's approval, and their answers (from any tab or instance).
import { getDb } from "./client.ts";

export type ToolApprovalRow = {
  conversationId: string;
  toolCallId: string;
  replyId: string;
  toolName: string;
  /** "cancelled": its reply was stopped before anyone answered (it was not run). */
  status: "pending" | "approved" | "denied" | "cancelled";
  reason: string | null;
  remember: boolean;
};

const SELECT = {
  conversationId: true,
  toolCallId: true,
  replyId: true,
  toolName: true,
  status: true,
  reason: true,
  remember: true,
} as const;

export async function createPendingApprovals(
  rows: { conversationId: string; toolCallId: string; replyId: string; toolName: string }[],
): Promise<void> {
  const db = await getDb();
  for (const row of rows) {
    await db.toolApproval.upsert({
      where: { conversationId_toolCallId: { conversationId: row.conversationId, toolCallId: row.toolCallId } },
      create: row,
      update: {},
    });
  }
}

export async function getToolApproval({
  conversationId,
  toolCallId,
}: {
  conversationId: string;
  toolCallId: string;
}): Promise<ToolApprovalRow | null> {
  const db = await getDb();
  return (await db.toolApproval.findUnique({
    where: { conversationId_toolCallId: { conversationId, toolCallId } },
    select: SELECT,
  })) as ToolApprovalRow | null;
}

export async function listToolApprovals({
  conversationId,
  toolCallIds,
}: {
  conversationId: string;
  toolCallIds: string[];
}): Promise<ToolApprovalRow[]> {
  const db = await getDb();
  return (await db.toolApproval.findMany({
    where: { conversationId, toolCallId: { in: toolCallIds } },
    select: SELECT,
  })) as ToolApprovalRow[];
}

/** The calls still waiting in any of the conversations (a parent's children), oldest first. */
export async function listPendingApprovals({
  conversationIds,
}: {
  conversationIds: string[];
}): Promise<ToolApprovalRow[]> {
  if (conversationIds.length === 0) return [];
  const db = await getDb();
  return (await db.toolApproval.findMany({
    where: { conversationId: { in: conversationIds }, status: "pending" },
    select: SELECT,
    orderBy: { createdAt: "asc" },
  })) as ToolApprovalRow[];
}

/** Settles the calls still pending as cancelled, with why (their reply was stopped): none is left waiting. */
export async function cancelPendingApprovals({
  conversationId,
  toolCallIds,
  reason,
}: {
  conversationId: string;
  toolCallIds: string[];
  reason: string;
}): Promise<void> {
  const db = await getDb();
  await db.toolApproval.updateMany({
    where: { conversationId, toolCallId: { in: toolCallIds }, status: "pending" },
    data: { status: "cancelled", reason, answeredAt: new Date() },
  });
}

/** Answers a pending call; false when it was answered already (the first answer stands). */
export async function answerToolApproval({
  conversationId,
  toolCallId,
  approved,
  reason,
  remember,
}: {
  conversationId: string;
  toolCallId: string;
  approved: boolean;
  reason?: string;
  remember: boolean;
}): Promise<boolean> {
  const db = await getDb();
  const { count } = await db.toolApproval.updateMany({
    where: { conversationId, toolCallId, status: "pending" },
    data: { status: approved ? "approved" : "denied", reason: reason ?? null, remember, answeredAt: new Date() },
  });
  return count > 0;
}
