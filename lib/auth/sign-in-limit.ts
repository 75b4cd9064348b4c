// Failed sign-ins, counted per client address (and so per account and address) and in total, over a sliding minute.
// Past a limit, sign-in answers 429 without looking at the password, until the oldest failure in the window is a minute
// old: guessing is slowed to a crawl, and no one is held for longer than a minute after the guessing stops. Failures
// are never counted against an account from everywhere: guesses at the admin's password from elsewhere do not lock the
// admin out. The address is the connection's: scripts/server.mjs replaces any X-Forwarded-For a client sends with it,
// unless HINTLINE_TRUST_PROXY=1 says a reverse proxy sets the header (then the last entry, the address the proxy itself
// saw, counts). The total limit holds when many addresses guess, except for an account and address that signed in
// successfully before (this process remembers them for KNOWN_MS), so the person is not held by guessing elsewhere.
export const SIGN_IN_WINDOW_MS = 60_000;
export const MAX_FAILURES_PER_ADDRESS = 10;
export const MAX_FAILURES_TOTAL = 100;
const MAX_ADDRESSES = 10_000;
const KNOWN_MS = 30 * 24 * 60 * 60 * 1000;
const MAX_KNOWN = 10_000;

/** A failure's time and the account it tried (accounts mode; token mode has one). */
type Failure = { at: number; account: string };
type State = { byAddress: Map<string, Failure[]>; total: number[]; known: Map<string, number> };

const holder = globalThis as unknown as { __hintlineSignInLimits?: State };

function state(): State {
  holder.__hintlineSignInLimits ??= { byAddress: new Map(), total: [], known: new Map() };
  return holder.__hintlineSignInLimits;
}

const pairKey = (address: string, account: string) => `${account}\u0000${address}`;

function prune<T>(items: T[], at: (item: T) => number, now: number): void {
  while (items.length > 0 && at(items[0]!) <= now - SIGN_IN_WINDOW_MS) items.shift();
}

export function clientAddress(request: Request): string {
  return (request.headers.get("x-forwarded-for") ?? "").split(",").at(-1)!.trim().slice(0, 100) || "unknown";
}

/** Which limit holds a sign-in: the address's own failures, or the whole server's. */
export type SignInHold = { seconds: number; limit: "address" | "server" };

/** Whether sign-in from `address` to `account` must wait now, how long and why; null when it may go. */
export function signInHold(address: string, account = "", now = Date.now()): SignInHold | null {
  const { byAddress, total, known } = state();
  const wait = (until: number) => Math.ceil((until - now) / 1000);
  const mine = byAddress.get(address);
  if (mine) prune(mine, (f) => f.at, now);
  if (mine && mine.length >= MAX_FAILURES_PER_ADDRESS) {
    const until = mine[mine.length - MAX_FAILURES_PER_ADDRESS]!.at + SIGN_IN_WINDOW_MS;
    if (until > now) return { seconds: wait(until), limit: "address" };
  }
  prune(total, (at) => at, now);
  if (total.length >= MAX_FAILURES_TOTAL && (known.get(pairKey(address, account)) ?? 0) <= now) {
    const until = total[total.length - MAX_FAILURES_TOTAL]! + SIGN_IN_WINDOW_MS;
    if (until > now) return { seconds: wait(until), limit: "server" };
  }
  return null;
}

/** Seconds until another attempt is allowed, or 0 when it is allowed now (token mode: one account). */
export function signInRetryAfter(address: string, now = Date.now()): number {
  return signInHold(address, "", now)?.seconds ?? 0;
}

export function recordSignInFailure(address: string, account = "", now = Date.now()): void {
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
export function recordSignInSuccess(address: string, account = "", now = Date.now()): void {
  const { byAddress, known } = state();
  const left = (byAddress.get(address) ?? []).filter((f) => f.account !== account);
  if (left.length) byAddress.set(address, left);
  else byAddress.delete(address);
  const key = pairKey(address, account);
  known.delete(key);
  if (known.size >= MAX_KNOWN) known.delete(known.keys().next().value!);
  known.set(key, now + KNOWN_MS);
}
