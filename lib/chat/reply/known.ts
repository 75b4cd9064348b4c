// What the next model call's input already tells the agent — the newest time hint, whether it has seen the task list,
// what the "told once" hints told — read from the messages it sends (the kept tail and the reply so far), never from
// a mark set when a hint was made: a hint whose reply was regenerated, retried, edited away or switched out of is
// simply not there. Folded per conversation and extended turn by turn (history-fold.ts), so a step costs its new
// messages and the reply, never the whole conversation.
import { type ContextScan, scanContext } from "../../agent/hints/scan-context.ts";
import { combineTold, NOTHING_TOLD, type Told, toldIn } from "../../agent/hints/told.ts";
import type { Settings } from "../../agent/settings.ts";
import type { Known } from "../../agent/step-decision.ts";
import type { ChatMessage, HintSource } from "../../chat-message.ts";
import { historyIndexOf, historyTotals } from "../history-fold.ts";

type ScanOptions = { source: HintSource; taskToolNames: readonly string[] };

/** The newer message's time hint wins; tasks seen anywhere count; a change counts until a newer view of the list. */
const combine = (older: ContextScan, newer: ContextScan): ContextScan => ({
  lastTimeText: newer.lastTimeText ?? older.lastTimeText,
  tasksSeen: older.tasksSeen || newer.tasksSeen,
  listSeen: older.listSeen === true || newer.listSeen === true,
  tasksChanged: newer.listSeen
    ? newer.tasksChanged === true
    : newer.tasksChanged === true || older.tasksChanged === true,
});
const NOTHING_SEEN: ContextScan = { tasksSeen: false };
const scanTotals = new Map<string, ReturnType<typeof historyTotals<ContextScan>>>();

/**
 * What the agent knows from a history: the same answer as scanning it newest to oldest, but kept per conversation
 * and extended turn by turn, so a task list last seen a thousand messages ago is not looked for again every step.
 */
function scanHistory(history: readonly ChatMessage[], options: ScanOptions): ContextScan {
  const key = JSON.stringify(options);
  let totals = scanTotals.get(key);
  if (!totals) {
    if (scanTotals.size >= 16) scanTotals.clear(); // options change only when the person edits them
    totals = historyTotals((m) => scanContext([m], { ...options, openTasks: true }), combine, NOTHING_SEEN);
    scanTotals.set(key, totals);
  }
  return totals(history)(history.length);
}

const toldTotals = new Map<string, ReturnType<typeof historyTotals<Told>>>();

/**
 * What the "told once" hints in the next call's input told the agent: the history it sends (kept per conversation
 * and extended turn by turn, like scanHistory) and the reply so far.
 */
export function toldSoFar(
  history: readonly ChatMessage[],
  reply: ChatMessage | undefined,
  runtimeSource: HintSource,
): Told {
  const key = JSON.stringify(runtimeSource);
  let totals = toldTotals.get(key);
  if (!totals) {
    if (toldTotals.size >= 16) toldTotals.clear();
    totals = historyTotals((m) => toldIn(m, runtimeSource), combineTold, NOTHING_TOLD);
    toldTotals.set(key, totals);
  }
  const told = totals(history)(history.length);
  return reply ? combineTold(told, toldIn(reply, runtimeSource)) : told;
}

// Where a message is in a kept tail (kept per conversation, extended turn by turn).
const tailIndexOf = historyIndexOf();

/**
 * What the next call's input tells the agent: `tail` is the history it sends, `reply` the reply so far. `noticed`: the
 * person's task edits a step went through without a task hint (counted while that step's reply is in the input).
 */
export function knownOf({
  tail,
  reply,
  settings,
  noticed,
}: {
  tail: readonly ChatMessage[];
  reply: ChatMessage;
  settings: Settings;
  noticed?: { count: number; replyId: string };
}): Known {
  const { injectionSource: source, taskToolNames } = settings.injection;
  const scan = combine(
    scanHistory(tail, { source, taskToolNames }),
    scanContext([reply], { source, taskToolNames, openTasks: true }),
  );
  const told = toldSoFar(tail, reply, source);
  const noticedEdits =
    noticed && (noticed.replyId === reply.id || tailIndexOf(tail, noticed.replyId) >= 0) ? noticed.count : 0;
  return { scan, told, noticedEdits };
}

/** Scans a conversation's model context ahead of its next reply (after an import). */
export function warmHintScan(history: readonly ChatMessage[], settings: Settings): void {
  const { injectionSource, taskToolNames } = settings.injection;
  scanHistory(history, { source: injectionSource, taskToolNames });
  toldSoFar(history, undefined, injectionSource);
}
