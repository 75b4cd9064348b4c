// Branches of a conversation, the pure part. Editing an earlier person message keeps what followed it: the old
// messages become an archived alternative of the new ones, both following the same anchor (the message before the
// edited one). The active alternative's messages are the conversation's rows, so the harness sees one linear
// history; an archived one is kept whole, with the alternatives that branched within it and the compression state
// that belonged to it.

import {
  type ArchivedBranch,
  type ArchivedMessage,
  type BranchRecord,
  parseArchived,
  parseRecord,
  START_ANCHOR,
} from "../archived-branch.ts";

export { type ArchivedBranch, type ArchivedMessage, type BranchRecord, parseArchived, parseRecord, START_ANCHOR };

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
