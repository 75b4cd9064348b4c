// Durable facts when a conversation ends, not only at a compression (a conversation never compressed would otherwise
// give its workspace nothing). It ends when the person archives it, or when it has been idle for
// HINTLINE_MEMORY_IDLE_MINUTES (default 30; 0: only archiving) after its last message: then the same bounded call as a
// compression's asks for the durable facts of the words not offered yet (lib/chat/compression-memory.ts).
//
// The idle check is no per-request work: a timer per process looks every few minutes for conversations whose last
// message is older than the idle time, with one query on an index of the conversations that had a message since they
// last ended (lib/db/memory-marks.ts); moving the conversation's mark is a conditional update, so of several instances
// on one PostgreSQL only one offers a conversation's words, and no words are offered twice.
import { memorySourceLines } from "../agent/compression-memory.ts";
import { resolveSettings } from "../agent/settings.ts";
import { now as clockNow } from "../clock.ts";
import {
  claimMemoryRange,
  clearMemoryDue,
  findIdleConversations,
  getMemoryMark,
  type MemoryMark,
  messagesInRange,
  postponeMemoryDue,
  releaseMemoryRange,
} from "../db/memory-marks.ts";
import { envNumber } from "../env-number.ts";
import { log, logFailure } from "../log/logger.ts";
import { keepsFactsFor, proposeFacts, rememberFacts } from "./compression-memory.ts";
import { contextWindowFor } from "./context-measure.ts";
import { modelForConversation, utilityModelFor } from "./conversation-model.ts";
import { meteredModel } from "./usage-meter.ts";
import { isDraining } from "./draining.ts";
import { replyLock } from "./live/reply-lock.ts";

/**
 * What an end did: `kept` (facts asked for and stored), `nothing-new` (no unoffered words), `not-kept-here` (a
 * subagent's conversation, a workspace that keeps no facts, an owner who may not change it: its words are passed
 * over), `reply-running` (looked at again once idle), `taken` (another instance, or a new message, came first),
 * `failed` (the call failed: the words stay unoffered until the conversation next ends).
 */
export type EndFacts = "kept" | "nothing-new" | "not-kept-here" | "reply-running" | "taken" | "failed";

const DEFAULT_IDLE_MINUTES = 30;
/** The newest messages an end reads (its request holds the newest lines that fit half the window anyway). */
const MAX_END_MESSAGES = 400;
/** Conversations one sweep reads at a time, and the most batches of them one tick goes through. */
const SWEEP_BATCH = 20;
const SWEEP_BATCHES = 5;

/** How long a conversation stays without a message before it has ended (HINTLINE_MEMORY_IDLE_MINUTES); 0: never. */
export function memoryIdleMs(): number {
  return envNumber("HINTLINE_MEMORY_IDLE_MINUTES", DEFAULT_IDLE_MINUTES) * 60_000;
}

/**
 * Offers the conversation's words not offered yet for durable facts and stores what the model proposes. `seen`: the
 * conversation as the sweep just read it. Never throws for the model's sake: a failed call is logged.
 */
export async function keepFactsAtEnd(conversationId: string, seen?: MemoryMark, now = clockNow()): Promise<EndFacts> {
  const mark = seen ?? (await getMemoryMark({ id: conversationId }));
  if (!mark) return "nothing-new";
  if (await replyLock().live(conversationId)) {
    // Its words are still being written: it is looked at again once it has been idle from now.
    await postponeMemoryDue({ id: conversationId, now });
    return "reply-running";
  }
  const { memoryFrom: from, messageSeq: to } = mark;
  if (from >= to) {
    await clearMemoryDue({ id: conversationId, messageSeq: to });
    return "nothing-new";
  }
  if (!(await keepsFactsFor(mark))) {
    // Words said where no facts are kept are passed over for good: switching facts on later does not offer them.
    await claimMemoryRange({ id: conversationId, from, to });
    return "not-kept-here";
  }
  if (!(await claimMemoryRange({ id: conversationId, from, to }))) return "taken";
  try {
    const lines = memorySourceLines(await messagesInRange({ conversationId, from, to, limit: MAX_END_MESSAGES }));
    if (lines.length === 0) return "nothing-new";
    const { model } = meteredModel(utilityModelFor(modelForConversation(mark.model)), mark.ownerId);
    const contextWindow = contextWindowFor(resolveSettings(mark.settings), mark.model);
    const { workspaceId } = mark;
    const proposed = await proposeFacts({
      conversationId,
      workspaceId,
      from,
      model,
      contextWindow,
      lines,
      when: "end",
    });
    if (proposed.failed) {
      await releaseMemoryRange({ id: conversationId, from, to });
      return "failed";
    }
    const { stored, duplicates, full } = await rememberFacts(conversationId, proposed);
    log().info(
      { conversationId, workspaceId, stored: stored.length, duplicates, full },
      "kept durable facts at a conversation's end",
    );
    return "kept";
  } catch (error) {
    // The model is no longer configured, or the database failed: the words stay for the next end.
    await releaseMemoryRange({ id: conversationId, from, to });
    throw error;
  }
}

/** The person archived the conversation: its facts are kept meanwhile (the answer does not wait for the model). */
export function keepFactsAfterArchive(conversationId: string): void {
  keepFactsAtEnd(conversationId).catch(logFailure("keeping durable facts at an archive failed", { conversationId }));
}

/** Ends the conversations idle for the idle time at `now` (at most a few batches of them); what each end did. */
export async function sweepIdleConversations(now = clockNow()): Promise<EndFacts[]> {
  const idleMs = memoryIdleMs();
  if (idleMs <= 0) return [];
  const lastBefore = new Date(now.getTime() - idleMs);
  const outcomes: EndFacts[] = [];
  for (let batch = 0; batch < SWEEP_BATCHES; batch++) {
    const due = await findIdleConversations({ lastBefore, limit: SWEEP_BATCH });
    for (const mark of due) {
      outcomes.push(
        await keepFactsAtEnd(mark.id, mark, now).catch((error: unknown) => {
          logFailure("keeping durable facts at a conversation's end failed", { conversationId: mark.id })(error);
          return "failed" as const;
        }),
      );
    }
    if (due.length < SWEEP_BATCH) break;
  }
  return outcomes;
}

type Sweep = { timer?: ReturnType<typeof setInterval>; running: boolean };
// One per process, whichever bundle of the server starts it.
const holder = globalThis as unknown as { __hintlineMemorySweep?: Sweep };
holder.__hintlineMemorySweep ??= { running: false };
const sweep = holder.__hintlineMemorySweep;

/**
 * Starts this process's sweep (instrumentation.ts): every third of the idle time, at least every second and at most
 * every 5 minutes; a sweep still running skips the next tick. False when it runs already or the idle time is 0.
 */
export function startIdleMemorySweep(): boolean {
  const idleMs = memoryIdleMs();
  if (sweep.timer || idleMs <= 0) return false;
  sweep.timer = setInterval(
    () => {
      if (sweep.running || isDraining()) return;
      sweep.running = true;
      sweepIdleConversations()
        .catch(logFailure("the sweep of idle conversations failed"))
        .finally(() => {
          sweep.running = false;
        });
    },
    Math.min(5 * 60_000, Math.max(1_000, idleMs / 3)),
  );
  sweep.timer.unref();
  return true;
}

export function stopIdleMemorySweep(): void {
  clearInterval(sweep.timer);
  sweep.timer = undefined;
}
