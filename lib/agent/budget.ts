// Budgets in accounts mode, decided purely: a person's day and month in their time zone, and whether what they spent
// there leaves room for another message. The clock is an argument; lib/chat/budgets.ts reads and counts.
import { addDays, addMonths } from "date-fns";
import { formatInTimeZone, fromZonedTime, getTimezoneOffset } from "date-fns-tz";

const HOUR_MS = 60 * 60 * 1000;

/** A limit per figure; null: none. */
export type Budget = { tokensPerDay: number | null; usdPerMonth: number | null };
export type Spent = { tokens: number; usd: number };
export type Window = { from: Date; to: Date };
export type BudgetWindows = { zone: string; day: Window; month: Window };

/**
 * The start of the calendar day `date` holds (as a UTC midnight) in `zone`: its midnight, or, where the clock skips
 * midnight (America/Santiago in September), the first instant of the day: the change itself, which is midnight at the
 * offset before it.
 */
function startOf(date: Date, zone: string): Date {
  const day = formatInTimeZone(date, "UTC", "yyyy-MM-dd");
  const midnight = fromZonedTime(`${day}T00:00:00`, zone);
  if (formatInTimeZone(midnight, zone, "yyyy-MM-dd") === day) return midnight;
  const offsetBefore = getTimezoneOffset(zone, new Date(midnight.getTime() - 6 * HOUR_MS));
  return new Date(date.getTime() - offsetBefore);
}

/** Today and this month in `zone` at `now`, each as [start, start of the next). */
export function budgetWindows(now: Date, zone: string): BudgetWindows {
  // The calendar date in the zone, held as a UTC midnight so date arithmetic is plain.
  const local = new Date(`${formatInTimeZone(now, zone, "yyyy-MM-dd")}T00:00:00Z`);
  const firstOfMonth = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1));
  return {
    zone,
    day: { from: startOf(local, zone), to: startOf(addDays(local, 1), zone) },
    month: { from: startOf(firstOfMonth, zone), to: startOf(addMonths(firstOfMonth, 1), zone) },
  };
}

/** When a window resets, in words a person reads: "00:00 on 7 Dec (Europe/Paris)". */
export function resetWords(at: Date, zone: string): string {
  return `${formatInTimeZone(at, zone, "HH:mm 'on' d MMM")} (${zone})`;
}

const tokenWords = (n: number) => `${Math.round(n).toLocaleString("en-US")} tokens`;
const dollarWords = (n: number) => `$${n.toFixed(2)}`;

export type BudgetRefusal = { message: string; resetsAt: Date };

/**
 * Why another message would go over budget, or null. A limit is reached once what was spent in its window is at or
 * above it (so a limit of 0 allows nothing); a reply that crossed it has finished, the next message is refused. With
 * both limits reached, the one that resets later is named: only then can the person write again.
 */
export function budgetRefusal(
  budget: Budget,
  spent: { day: Spent; month: Spent },
  windows: BudgetWindows,
): BudgetRefusal | null {
  const { tokensPerDay, usdPerMonth } = budget;
  const refusals: BudgetRefusal[] = [];
  if (usdPerMonth !== null && spent.month.usd >= usdPerMonth) {
    refusals.push({
      resetsAt: windows.month.to,
      message: `Your monthly budget of ${dollarWords(usdPerMonth)} is used up (${dollarWords(spent.month.usd)} this month). It resets at ${resetWords(windows.month.to, windows.zone)}.`,
    });
  }
  if (tokensPerDay !== null && spent.day.tokens >= tokensPerDay) {
    refusals.push({
      resetsAt: windows.day.to,
      message: `Your daily budget of ${tokenWords(tokensPerDay)} is used up (${tokenWords(spent.day.tokens)} today). It resets at ${resetWords(windows.day.to, windows.zone)}.`,
    });
  }
  return refusals[0] ?? null;
}
