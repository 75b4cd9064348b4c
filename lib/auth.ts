// Optional access control: with HINTLINE_AUTH_TOKEN set, every page and API route needs the token, either as
// `Authorization: Bearer <token>` or as the httpOnly session cookie the sign-in page sets. The cookie names a random
// session id and carries an HMAC of it keyed by the token (never the token itself), so one session can be revoked.
export const SESSION_COOKIE = "hintline_session";
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export function authToken(): string | undefined {
  return process.env.HINTLINE_AUTH_TOKEN || undefined;
}

export function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

async function hmacHex(token: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(token), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text));
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("");
}

export type Session = { id: string; expiresAt: Date };

/** A new session's cookie value: `<id>.<expiry, seconds since the epoch>.<HMAC of both>`. */
export async function newSessionValue(token: string, now = Date.now()): Promise<{ value: string; session: Session }> {
  const id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  const expires = Math.floor(now / 1000) + SESSION_MAX_AGE_SECONDS;
  const payload = `${id}.${expires}`;
  return { value: `${payload}.${await hmacHex(token, `hintline-session-v2:${payload}`)}`, session: { id, expiresAt: new Date(expires * 1000) } };
}

/** The session a cookie value names, when its HMAC is right and it has not expired (revocation is checked elsewhere). */
export async function verifySessionValue(token: string, value: string, now = Date.now()): Promise<Session | null> {
  const match = /^([0-9a-f]{32})\.(\d{1,12})\.([0-9a-f]{64})$/.exec(value);
  if (!match) return null;
  const [, id, expires, mac] = match as unknown as [string, string, string, string];
  if (!safeEqual(mac, await hmacHex(token, `hintline-session-v2:${id}.${expires}`))) return null;
  const expiresAt = new Date(Number(expires) * 1000);
  return expiresAt.getTime() > now ? { id, expiresAt } : null;
}

/**
 * Only a same-site path is followed after sign-in. Browsers drop tabs and newlines from URLs and read "\" as "/", so
 * "/\t/evil.example" would become "//evil.example": any control character, whitespace or backslash is refused, the
 * path must start with one "/" followed by something else, and resolved it must stay on the same origin.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || next.length > 2048 || !/^\/(?!\/)/.test(next)) return "/";
  if (/[\u0000-\u0020\u007f-\u00a0\\\u1680\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]/.test(next)) return "/";
  try {
    const base = "http://hintline.invalid";
    const url = new URL(next, base);
    return url.origin === base ? next : "/";
  } catch {
    return "/";
  }
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The host name (lower-case, IPv6 in brackets) and port of a Host header, or null when it is not one. */
function splitHost(value: string): { name: string; port: string } | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!match) return null;
  return { name: match[1]!.toLowerCase().replace(/\.$/, ""), port: match[2] ?? "" };
}

function isLoopback(name: string): boolean {
  return LOOPBACK_NAMES.has(name) || name.endsWith(".localhost") || /^127(?:\.\d{1,3}){3}$/.test(name);
}

/**
 * Whether a request's Host header names this server. A page on another site that resolves its own name to 127.0.0.1
 * (DNS rebinding) is same-origin with itself, so the browser sends Host: attacker.example: only loopback names are
 * served, plus HINTLINE_ALLOWED_HOSTS (comma-separated `host` or `host:port`; `*` allows any).
 */
export function allowedHost(host: string | null, extra = process.env.HINTLINE_ALLOWED_HOSTS ?? ""): boolean {
  if (!host) return false;
  const parsed = splitHost(host);
  if (!parsed) return false;
  if (isLoopback(parsed.name)) return true;
  for (const entry of extra.split(",")) {
    const allowed = entry.trim().toLowerCase();
    if (!allowed) continue;
    if (allowed === "*") return true;
    const wanted = splitHost(allowed);
    if (wanted && wanted.name === parsed.name && (!wanted.port || wanted.port === parsed.port)) return true;
  }
  return false;
}
