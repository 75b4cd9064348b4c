// What the sign-in page says when OpenID Connect sign-in came back with `?error=<code>`.
/** OIDC's way back names what went wrong in `?error=`: these are the ones a person can act on. */
const OIDC_ERRORS: Record<string, string> = {
  invitation_required: "Signing up needs an invitation link from an admin.",
  account_disabled: "This account is disabled; ask an admin.",
  account_not_linked: "An account with this email signs in with its password: sign in with that.",
  oidc_unavailable: "The sign-in provider can't be reached — try again later.",
};

export function oidcErrorText(code: string | undefined, provider: string | undefined): string | null {
  if (!code) return null;
  return (
    OIDC_ERRORS[code] ??
    `Signing in${provider ? ` with ${provider}` : ""} did not complete (${code.slice(0, 60)}). Try again.`
  );
}
