// When a state source's reading is due, and how a subscribed mcp-resource source (issue 48) keeps its subscription,
// pure: the clock is an argument. A source is read when its refreshSeconds have passed or when its server pushed an
// update since the last read began (a flood of pushes is one flag, so it costs one read); a lost subscription is
// tried again after a delay that doubles per failure; one no reasoning step used for a while is let go.

/** The first wait before subscribing again after a subscription was lost (or could not be made). */
export const RESUBSCRIBE_FIRST_DELAY_MS = 2_000;
/** The longest wait between two tries. */
export const RESUBSCRIBE_MAX_DELAY_MS = 5 * 60_000;
/** A subscription that lived this long before it was lost counts as healthy: its next wait starts afresh. */
export const SUBSCRIPTION_STABLE_MS = 5 * 60_000;
/** A subscription no reasoning step used for this long is closed (the next step that reads the source opens it again). */
export const SUBSCRIPTION_IDLE_MS = 15 * 60_000;
/** Subscription connections one process keeps open at most; sources beyond it are polled. */
export const MAX_SUBSCRIPTIONS = 200;

/** Whether a source's reading is due: its refresh has passed since the last read began, or an update was pushed. */
export function readingDue(input: { nowMs: number; startedAt: number; refreshSeconds: number; pushed: boolean }) {
  return input.pushed || input.nowMs - input.startedAt >= input.refreshSeconds * 1000;
}

/** How long to wait before the next try after `failures` failures in a row (1 or more). */
export function resubscribeDelayMs(failures: number): number {
  const doublings = Math.min(Math.max(failures, 1) - 1, 20);
  return Math.min(RESUBSCRIBE_FIRST_DELAY_MS * 2 ** doublings, RESUBSCRIBE_MAX_DELAY_MS);
}

/** The failures in a row after a subscription that lived `livedMs` was lost (a healthy one starts the count afresh). */
export function failuresAfterLoss(failures: number, livedMs: number): number {
  return livedMs >= SUBSCRIPTION_STABLE_MS ? 1 : failures + 1;
}

/** Whether a subscription last used at `lastUsedAt` has been unused long enough to be closed. */
export function subscriptionIdle(lastUsedAt: number, nowMs: number): boolean {
  return nowMs - lastUsedAt >= SUBSCRIPTION_IDLE_MS;
}
