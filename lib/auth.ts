// Optional access control: with HINTLINE_AUTH_TOKEN set, every page and API route needs the token, either as
// `Authorization: Bearer <token>` or as the httpOnly session cookie the sign-in page sets. The cookie holds an HMAC
// of the token, never the token itself.
export const SESSION_COOKIE = "hintline_session";

export function authToken(): string | undefined {
  return process.env.HINTLINE_AUTH_TOKEN || undefined;
}

export function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export async function sessionValue(token: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(token), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode("hintline-session-v1"));
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Only same-site relative paths are followed after sign-in. */
export function safeNextPath(next: string | null | undefined): string {
  return next?.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}
