// What the sign-in page says when OpenID Connect sign-in came back with `?error=<code>`, and the refusal of its routes
// when it is not configured.
import { operatorNote } from "../operator-words.ts";

/** The variable to set is the operator's (lib/operator-words.ts); a person signing in reads that it is not set up. */
export const OIDC_NOT_CONFIGURED = `OpenID Connect sign-in is not configured${operatorNote(" (HINTLINE_OIDC_ISSUER)", " on this server")}.`;

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
