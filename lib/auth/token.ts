// Optional access control: with HINTLINE_AUTH_TOKEN set, every page and API route needs the token, either as
// `Authorization: Bearer <token>` or as the httpOnly session cookie the sign-in page sets. The cookie names a random
// session id and carries an HMAC of it (never the token itself), so one session can be revoked. The HMAC's key is
// derived from the token with scrypt (once per process): a stolen cookie costs an attacker one scrypt per guessed
// token, not one HMAC (about 126,000 guesses a second per core before).
import { createHmac, scrypt } from "node:crypto";

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

/** scrypt's cost: 2^15 × 8 × 128 bytes = 32 MiB and tens of milliseconds per derivation. */
export const SESSION_KEY_SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const SESSION_KEY_SALT = "hintline-session-key-v3";

const keys = globalThis as unknown as { __hintlineSessionKeys?: Map<string, Promise<Buffer>> };

/** The cookie HMAC's key for a token: derived once per process and token (the proxy and the routes share it). */
export function sessionKey(token: string): Promise<Buffer> {
  keys.__hintlineSessionKeys ??= new Map();
  let key = keys.__hintlineSessionKeys.get(token);
  if (!key) {
    key = new Promise<Buffer>((resolve, reject) =>
      scrypt(token, SESSION_KEY_SALT, 32, SESSION_KEY_SCRYPT, (error, derived) =>
        error ? reject(error) : resolve(derived),
      ),
    );
    // A token set in the environment does not change; only a test tries several, so the map stays tiny.
    if (keys.__hintlineSessionKeys.size >= 8) keys.__hintlineSessionKeys.clear();
    keys.__hintlineSessionKeys.set(token, key);
  }
  return key;
}

async function hmacHex(token: string, text: string): Promise<string> {
  return createHmac("sha256", await sessionKey(token))
    .update(text)
    .digest("hex");
}

export type Session = { id: string; expiresAt: Date };

/** A new session's cookie value: `<id>.<expiry, seconds since the epoch>.<HMAC of both>`. */
export async function newSessionValue(token: string, now = Date.now()): Promise<{ value: string; session: Session }> {
  const id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  const expires = Math.floor(now / 1000) + SESSION_MAX_AGE_SECONDS;
  const payload = `${id}.${expires}`;
  return {
    value: `${payload}.${await hmacHex(token, `hintline-session-v3:${payload}`)}`,
    session: { id, expiresAt: new Date(expires * 1000) },
  };
}

/** The session a cookie value names, when its HMAC is right and it has not expired (revocation is checked elsewhere). */
export async function verifySessionValue(token: string, value: string, now = Date.now()): Promise<Session | null> {
  const match = /^([0-9a-f]{32})\.(\d{1,12})\.([0-9a-f]{64})$/.exec(value);
  if (!match) return null;
  const [, id, expires, mac] = match as unknown as [string, string, string, string];
  if (!safeEqual(mac, await hmacHex(token, `hintline-session-v3:${id}.${expires}`))) return null;
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
    // As the URL parser spells it: percent-encoded ASCII, so it can go into a Location header ("/／x" could not).
    return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : "/";
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

/**
 * Whether the client reached this server over HTTPS, so cookies get `Secure`. scripts/server.mjs sets
 * X-Forwarded-Proto from the connection itself, or keeps a reverse proxy's when HINTLINE_TRUST_PROXY=1.
 */
export function viaHttps(request: Request): boolean {
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https" || request.url.startsWith("https:");
}
