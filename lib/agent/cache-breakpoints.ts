// Anthropic caches nothing unless the request marks cache breakpoints (`cache_control`, at most 4 per request; a
// breakpoint's lookup walks back at most 20 blocks for an earlier entry). For an append-only conversation the marks
// go where every call's prefix is the previous call's request plus new messages:
//   1. the system prompt (after the tools, which come before it): the part that never changes;
//   2. the newest message of this call: written to the cache for the next call to read;
//   3. the previous call's newest message, kept marked: exactly where the previous call wrote, so this call reads
//      everything up to it whatever number of blocks came since (hints, tool results, the person's message).
// Hints are ordinary blocks of the history: they are cached like any other. Pure: the caller keeps a tracker per
// conversation; the marks go on copies of the marked messages (the history's own objects are never changed).
// Every mark of a call has the same TTL (HINTLINE_ANTHROPIC_CACHE_TTL): Anthropic requires longer-lived marks before
// shorter ones, and each call's newest mark is what the next turn reads, whenever it comes.
import type { ModelMessage, SystemModelMessage } from "ai";

export const MAX_BREAKPOINTS = 4;

/** How long a mark's entry lives: 5 minutes (Anthropic's default, sent without a `ttl`) or 1 hour (written at 2×). */
export type BreakpointTtl = "5m" | "1h";

const markOf = (ttl: BreakpointTtl) =>
  ({ cacheControl: ttl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" } }) as const;

/** Where a call's breakpoints go: the system prompt, and the indexes of the marked messages (ascending). */
export type BreakpointPlan = { system: boolean; messages: number[] };

/** The newest message the next call still sends: `lastKept` when it is one before the newest, else the newest. */
const keptIndex = (messageCount: number, lastKept: number | undefined) =>
  lastKept !== undefined && Number.isInteger(lastKept) && lastKept >= 0 && lastKept < messageCount - 1
    ? lastKept
    : messageCount - 1;

/**
 * The plan for a call of `messageCount` messages, given where the previous call's newest kept message is (if it still
 * is). `lastKept`: the newest message the next call will still send, when the call ends with one that goes away (the
 * `replace` strategy's status): it is marked too, so the next call has an entry to read.
 */
export function breakpointPlan({
  messageCount,
  previousNewest,
  lastKept,
}: {
  messageCount: number;
  previousNewest?: number;
  lastKept?: number;
}): BreakpointPlan {
  const newest = messageCount - 1;
  const kept = keptIndex(messageCount, lastKept);
  const messages: number[] = [];
  if (previousNewest !== undefined && Number.isInteger(previousNewest) && previousNewest >= 0 && previousNewest < kept)
    messages.push(previousNewest);
  if (kept >= 0) messages.push(kept);
  if (newest > kept) messages.push(newest);
  // System + at most three messages: within the limit of 4 by construction; checked anyway.
  return { system: true, messages: messages.slice(-(MAX_BREAKPOINTS - 1)) };
}

function withMark<T extends ModelMessage>(value: T, ttl: BreakpointTtl): T {
  return {
    ...value,
    providerOptions: {
      ...value.providerOptions,
      anthropic: { ...value.providerOptions?.anthropic, ...markOf(ttl) },
    },
  };
}

/** The call's system prompt and messages with the plan's marks (as AI SDK provider options), the inputs unchanged. */
export function applyBreakpoints(
  instructions: string,
  messages: readonly ModelMessage[],
  plan: BreakpointPlan,
  ttl: BreakpointTtl = "5m",
): { instructions: string | SystemModelMessage; messages: ModelMessage[] } {
  const marked = new Set(plan.messages);
  return {
    // An empty system block cannot carry a mark (the API refuses it).
    instructions:
      plan.system && instructions !== ""
        ? withMark<SystemModelMessage>({ role: "system", content: instructions }, ttl)
        : instructions,
    messages: messages.map((message, i) => (marked.has(i) ? withMark(message, ttl) : message)),
  };
}

/**
 * Remembers, per conversation, the previous call's newest message (its index and its content), so that the next
 * call marks it again when it is still there unchanged (not after a compression or an edit replaced the history).
 */
export function createBreakpointTracker() {
  let previous: { index: number; key: string } | undefined;
  return {
    /** The marks for the next call, which becomes the previous one (`lastKept`: see breakpointPlan). */
    mark(
      instructions: string,
      messages: readonly ModelMessage[],
      { lastKept, ttl = "5m" }: { lastKept?: number; ttl?: BreakpointTtl } = {},
    ) {
      const still =
        previous && previous.index < messages.length - 1 && JSON.stringify(messages[previous.index]) === previous.key;
      const plan = breakpointPlan({
        messageCount: messages.length,
        previousNewest: still ? previous!.index : undefined,
        lastKept,
      });
      // The newest mark the next call can find again: the last kept message's.
      const kept = keptIndex(messages.length, lastKept);
      previous = kept < 0 ? undefined : { index: kept, key: JSON.stringify(messages[kept]) };
      return { plan, ...applyBreakpoints(instructions, messages, plan, ttl) };
    },
  };
}

export type BreakpointTracker = ReturnType<typeof createBreakpointTracker>;
