// Failed sign-ins and failed bearer-token checks, counted per client address (each tagged with the account it tried)
// and in total, over a sliding minute. Past a limit, sign-in and any request carrying a bearer token answer 429
// without looking at what was sent, until the oldest failure in the window is a minute old: guessing is slowed to a
// crawl, and no one is held for longer than a minute after the guessing stops. Failures are never counted against an
// account from everywhere: guesses at the admin's password from elsewhere do not lock the admin out, and a success
// clears only that account's failures at that address. The address is the connection's: scripts/server.mjs replaces
// any X-Forwarded-For a client sends with it, unless HINTLINE_TRUST_PROXY=1 says a reverse proxy sets the header (then
// the last entry, the address the proxy itself saw, counts). The total limit holds when many addresses guess, except
// for an account and address that signed in successfully before (this process remembers them for KNOWN_MS), so the
// person is not held by guessing elsewhere.
// On PostgreSQL the failures are rows every instance counts (lib/db/auth-failures.ts), so a guesser gains nothing by
// spreading over instances; on SQLite (one process) they are counted in this process's memory.
import { addFailure, clearFailures, nthNewestFailures } from "../db/auth-failures.ts";
import { databaseUrl, isPostgresUrl } from "../db/client.ts";

export const SIGN_IN_WINDOW_MS = 60_000;
export const MAX_FAILURES_PER_ADDRESS = 10;
export const MAX_FAILURES_TOTAL = 100;
const MAX_ADDRESSES = 10_000;
const KNOWN_MS = 30 * 24 * 60 * 60 * 1000;
const MAX_KNOWN = 10_000;

/** A failure's time and the account it tried (accounts mode; a bearer token or token mode has one, ""). */
type Failure = { at: number; account: string };
type State = { byAddress: Map<string, Failure[]>; total: number[]; known: Map<string, number> };

const holder = globalThis as unknown as { __hintlineSignInLimits?: State };

function state(): State {
  holder.__hintlineSignInLimits ??= { byAddress: new Map(), total: [], known: new Map() };
  return holder.__hintlineSignInLimits;
}

const shared = () => isPostgresUrl(databaseUrl());
const pairKey = (address: string, account: string) => `${account}\u0000${address}`;

function prune<T>(items: T[], at: (item: T) => number, now: number): void {
  while (items.length > 0 && at(items[0]!) <= now - SIGN_IN_WINDOW_MS) items.shift();
}

export function clientAddress(request: Request): string {
  return (request.headers.get("x-forwarded-for") ?? "").split(",").at(-1)!.trim().slice(0, 100) || "unknown";
}

/** Which limit holds a sign-in: the address's own failures, or the whole server's. */
export type SignInHold = { seconds: number; limit: "address" | "server" };

/** When the address's limit and the total limit end (ms; 0 when not reached), from the rows or from memory. */
async function blockedUntil(address: string, now: number): Promise<{ address: number; total: number }> {
  const ends = (at: number | undefined) => (at === undefined ? 0 : at + SIGN_IN_WINDOW_MS);
  if (shared()) {
    const since = new Date(now - SIGN_IN_WINDOW_MS);
    const newest = await nthNewestFailures({
      key: address,
      since,
      nth: MAX_FAILURES_PER_ADDRESS,
      nthTotal: MAX_FAILURES_TOTAL,
    });
    return { address: ends(newest.byKey?.getTime()), total: ends(newest.total?.getTime()) };
  }
  const { byAddress, total } = state();
  const mine = byAddress.get(address);
  if (mine) prune(mine, (f) => f.at, now);
  prune(total, (at) => at, now);
  return {
    address: ends(
      mine && mine.length >= MAX_FAILURES_PER_ADDRESS ? mine[mine.length - MAX_FAILURES_PER_ADDRESS]!.at : undefined,
    ),
    total: ends(total.length >= MAX_FAILURES_TOTAL ? total[total.length - MAX_FAILURES_TOTAL] : undefined),
  };
}

/** Whether sign-in from `address` to `account` must wait now, how long and why; null when it may go. */
export async function signInHold(address: string, account = "", now = Date.now()): Promise<SignInHold | null> {
  const until = await blockedUntil(address, now);
  const wait = (end: number) => Math.ceil((end - now) / 1000);
  if (until.address > now) return { seconds: wait(until.address), limit: "address" };
  const known = (state().known.get(pairKey(address, account)) ?? 0) > now;
  if (until.total > now && !known) return { seconds: wait(until.total), limit: "server" };
  return null;
}

/** Seconds until another attempt from `address` is allowed, or 0 when it is allowed now (a bearer token, token mode). */
export async function signInRetryAfter(address: string, now = Date.now()): Promise<number> {
  return (await signInHold(address, "", now))?.seconds ?? 0;
}

export async function recordSignInFailure(address: string, account = "", now = Date.now()): Promise<void> {
  if (shared()) {
    await addFailure({ key: address, account, at: new Date(now), forgetBefore: new Date(now - SIGN_IN_WINDOW_MS) });
    return;
  }
  const { byAddress, total } = state();
  let mine = byAddress.get(address);
  if (!mine) {
    if (byAddress.size >= MAX_ADDRESSES) byAddress.delete(byAddress.keys().next().value!);
    mine = [];
    byAddress.set(address, mine);
  }
  mine.push({ at: now, account });
  if (mine.length > MAX_FAILURES_PER_ADDRESS) mine.shift();
  total.push(now);
  if (total.length > MAX_FAILURES_TOTAL) total.shift();
}

/**
 * A success clears the address's failures for that account only (signing in to one's own account does not wipe the
 * guesses at another's), and remembers the account and address as known.
 */
export async function recordSignInSuccess(address: string, account = "", now = Date.now()): Promise<void> {
  const { byAddress, known } = state();
  if (shared()) await clearFailures(address, account);
  else {
    const left = (byAddress.get(address) ?? []).filter((f) => f.account !== account);
    if (left.length) byAddress.set(address, left);
    else byAddress.delete(address);
  }
  const key = pairKey(address, account);
  known.delete(key);
  if (known.size >= MAX_KNOWN) known.delete(known.keys().next().value!);
  known.set(key, now + KNOWN_MS);
}
