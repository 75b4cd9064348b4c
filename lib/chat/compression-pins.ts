// The person pins an item of a compression's evidence back: one the ledger's bound dropped (or one in the ledger, so
// a later bound never drops it). A pin takes effect at the next compression, when the summary message is written
// anyway: changing that message now would break the provider's prompt cache for one item. "Compress now" applies it
// at once. Pinned items stay in the ledger from then on.
import { z } from "zod";
import { ApiError } from "../api/errors.ts";
import { LEDGER_KINDS, type LedgerItem } from "../chat-message.ts";
import { getConversation } from "../db/conversations.ts";
import { replyLock } from "./live/reply-lock.ts";
import { parseAgentState, patchAgentState } from "./agent-state.ts";

export const MAX_PINS = 50;

export const pinSchema = z
  .object({
    kind: z.enum(LEDGER_KINDS, { message: `must be one of ${LEDGER_KINDS.join(", ")}` }),
    value: z.string().min(1, { message: "must not be empty" }).max(300),
  })
  .strict();

export type PinsView = {
  /** Pinned since the last compression: they join the ledger at the next one. */
  pending: LedgerItem[];
  /** Already in the ledger, pinned. */
  pinned: LedgerItem[];
  takesEffect: "next-compression";
};

async function compressionOf(conversationId: string) {
  const conversation = await getConversation({ id: conversationId });
  if (!conversation) throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`);
  return parseAgentState(conversation.agentState).compression;
}

const same = (a: { kind: string; value: string }, b: { kind: string; value: string }) =>
  a.kind === b.kind && a.value === b.value;

export async function listPins(conversationId: string): Promise<PinsView> {
  const compression = await compressionOf(conversationId);
  return {
    pending: compression?.pins ?? [],
    pinned: (compression?.ledger ?? []).filter((i) => i.pinned),
    takesEffect: "next-compression",
  };
}

export async function pinLedgerItem(conversationId: string, pin: z.infer<typeof pinSchema>): Promise<PinsView> {
  const compression = await compressionOf(conversationId);
  // A reply may compress meanwhile: its new state must not be overwritten with this one.
  if (await replyLock().live(conversationId))
    throw new ApiError("conflict", "A reply is being written; pin after it finishes.");
  if (!compression)
    throw new ApiError("conflict", "This conversation has not been compressed yet: there is no ledger to pin to.");
  const item = [...(compression.dropped ?? []), ...(compression.ledger ?? [])].find((i) => same(i, pin));
  if (!item) {
    throw new ApiError(
      "not_found",
      `No ${pin.kind} "${pin.value.slice(0, 80)}" among the last compression's ledger or dropped items.`,
      "value",
    );
  }
  const pins = compression.pins ?? [];
  if (!item.pinned && !pins.some((p) => same(p, item))) {
    if (pins.length >= MAX_PINS)
      throw new ApiError(
        "conflict",
        `At most ${MAX_PINS} items can wait for the next compression; compress now to apply them.`,
      );
    await patchAgentState(conversationId, {
      compression: { ...compression, pins: [...pins, { ...item, pinned: true }] },
    });
  }
  return listPins(conversationId);
}
