// The name of accounts mode's session cookie (better-auth's, with Hintline's prefix: lib/auth/accounts.ts), so the
// proxy can turn away a request that carries none without a database read.
export const ACCOUNTS_COOKIE_PREFIX = "hintline";

export function hasAccountsCookie(request: Request): boolean {
  const cookies = request.headers.get("cookie") ?? "";
  return cookies.split(";").some((pair) => {
    const name = pair.split("=")[0]!.trim();
    return (
      name === `${ACCOUNTS_COOKIE_PREFIX}.session_token` || name === `__Secure-${ACCOUNTS_COOKIE_PREFIX}.session_token`
    );
  });
}
