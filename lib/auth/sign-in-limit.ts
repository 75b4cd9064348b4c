// Failed sign-ins, counted per client address and in total over a sliding minute. Past a limit, sign-in answers 429
// without looking at the token, until the oldest failure in the window is a minute old: guessing is slowed to a
// crawl, and the person is never locked out for longer than a minute after the guessing stops. The address is the
// connection's: scripts/server.mjs replaces any X-Forwarded-For a client sends with it, unless HINTLINE_TRUST_PROXY=1
// says a reverse proxy sets the header (then the last entry, the address the proxy itself saw, counts). The total
// limit holds when many addresses guess.
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

export function clientAddress(request: Request): string {
  return (request.headers.get("x-forwarded-for") ?? "").split(",").at(-1)!.trim().slice(0, 100) || "unknown";
}

/** Seconds until another attempt is allowed, or 0 when it is allowed now. */
export function signInRetryAfter(address: string, now = Date.now()): number {
  const { byAddress, total } = state();
  prune(total, now);
  const mine = byAddress.get(address);
  if (mine) prune(mine, now);
  const blockedUntil = Math.max(
    mine && mine.length >= MAX_FAILURES_PER_ADDRESS ? mine[mine.length - MAX_FAILURES_PER_ADDRESS]! + SIGN_IN_WINDOW_MS : 0,
    total.length >= MAX_FAILURES_TOTAL ? total[total.length - MAX_FAILURES_TOTAL]! + SIGN_IN_WINDOW_MS : 0,
  );
  return blockedUntil > now ? Math.ceil((blockedUntil - now) / 1000) : 0;
}

/** A failure of `key` (an address, or in accounts mode also `account:<email>`); counted in the total once per attempt. */
export function recordSignInFailure(address: string, now = Date.now(), { countTotal = true } = {}): void {
  const { byAddress, total } = state();
  let mine = byAddress.get(address);
  if (!mine) {
    if (byAddress.size >= MAX_ADDRESSES) byAddress.delete(byAddress.keys().next().value!);
    mine = [];
    byAddress.set(address, mine);
  }
  mine.push(now);
  if (mine.length > MAX_FAILURES_PER_ADDRESS) mine.shift();
  if (!countTotal) return;
  total.push(now);
  if (total.length > MAX_FAILURES_TOTAL) total.shift();
}

export function recordSignInSuccess(address: string): void {
  state().byAddress.delete(address);
}
