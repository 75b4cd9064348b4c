// Failed sign-ins and failed bearer-token checks, counted per client address and in total over a sliding minute. Past
// a limit, sign-in and any request carrying a bearer token answer 429 without looking at what was sent, until the
// oldest failure in the window is a minute old: guessing is slowed to a crawl, and the person is never locked out for
// longer than a minute after the guessing stops. The address is the connection's: scripts/server.mjs replaces any
// X-Forwarded-For a client sends with it, unless HINTLINE_TRUST_PROXY=1 says a reverse proxy sets the header (then the
// last entry, the address the proxy itself saw, counts). The total limit holds when many addresses guess.
// On PostgreSQL the failures are rows every instance counts (lib/db/auth-failures.ts), so a guesser gains nothing by
// spreading over instances; on SQLite (one process) they are counted in this process's memory.
import { addFailure, clearFailures, nthNewestFailures } from "../db/auth-failures.ts";
import { databaseUrl, isPostgresUrl } from "../db/client.ts";

export const SIGN_IN_WINDOW_MS = 60_000;
export const MAX_FAILURES_PER_ADDRESS = 10;
export const MAX_FAILURES_TOTAL = 100;
const MAX_ADDRESSES = 10_000;

type Failures = number[];

const holder = globalThis as unknown as { __hintlineSignInFailures?: { byAddress: Map<string, Failures>; total: Failures } };

function state() {
  holder.__hintlineSignInFailures ??= { byAddress: new Map(), total: [] };
  return holder.__hintlineSignInFailures;
}

function prune(failures: Failures, now: number): void {
  while (failures.length > 0 && failures[0]! <= now - SIGN_IN_WINDOW_MS) failures.shift();
}

const shared = () => isPostgresUrl(databaseUrl());

export function clientAddress(request: Request): string {
  return (request.headers.get("x-forwarded-for") ?? "").split(",").at(-1)!.trim().slice(0, 100) || "unknown";
}

/** Seconds from `now` until `blockedUntil` (a time in ms), rounded up; 0 when it has passed. */
const secondsUntil = (blockedUntil: number, now: number) => (blockedUntil > now ? Math.ceil((blockedUntil - now) / 1000) : 0);

/** Seconds until another attempt from `key` (an address, or in accounts mode `account:<email>`) is allowed; 0: now. */
export async function signInRetryAfter(key: string, now = Date.now()): Promise<number> {
  if (shared()) {
    const since = new Date(now - SIGN_IN_WINDOW_MS);
    const newest = await nthNewestFailures({ key, since, nth: MAX_FAILURES_PER_ADDRESS, nthTotal: MAX_FAILURES_TOTAL });
    return secondsUntil(Math.max(...[newest.byKey, newest.total].map((at) => (at ? at.getTime() + SIGN_IN_WINDOW_MS : 0))), now);
  }
  const { byAddress, total } = state();
  prune(total, now);
  const mine = byAddress.get(key);
  if (mine) prune(mine, now);
  const blockedUntil = Math.max(
    mine && mine.length >= MAX_FAILURES_PER_ADDRESS ? mine[mine.length - MAX_FAILURES_PER_ADDRESS]! + SIGN_IN_WINDOW_MS : 0,
    total.length >= MAX_FAILURES_TOTAL ? total[total.length - MAX_FAILURES_TOTAL]! + SIGN_IN_WINDOW_MS : 0,
  );
  return secondsUntil(blockedUntil, now);
}

/** A failure of `key` (an address, or in accounts mode also `account:<email>`); counted in the total once per attempt. */
export async function recordSignInFailure(key: string, now = Date.now(), { countTotal = true } = {}): Promise<void> {
  if (shared()) {
    await addFailure({ key, total: countTotal, at: new Date(now), forgetBefore: new Date(now - SIGN_IN_WINDOW_MS) });
    return;
  }
  const { byAddress, total } = state();
  let mine = byAddress.get(key);
  if (!mine) {
    if (byAddress.size >= MAX_ADDRESSES) byAddress.delete(byAddress.keys().next().value!);
    mine = [];
    byAddress.set(key, mine);
  }
  mine.push(now);
  if (mine.length > MAX_FAILURES_PER_ADDRESS) mine.shift();
  if (!countTotal) return;
  total.push(now);
  if (total.length > MAX_FAILURES_TOTAL) total.shift();
}

/** A right password or token from `key`: its failures are forgotten. */
export async function recordSignInSuccess(key: string): Promise<void> {
  if (shared()) await clearFailures(key);
  else state().byAddress.delete(key);
}
