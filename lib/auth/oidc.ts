// OpenID Connect sign-in for accounts mode, when HINTLINE_OIDC_ISSUER, HINTLINE_OIDC_CLIENT_ID and
// HINTLINE_OIDC_CLIENT_SECRET are set: better-auth's genericOAuth plugin (discovery, PKCE, an id_token verified
// against the issuer's JWKS and nonce). The provider's redirect URI is <origin>/api/auth/callback/oidc.
// A first OIDC sign-in creates the user under sign-up's rules: the first account is the admin; later ones need an
// invitation unless HINTLINE_OPEN_SIGNUP=1. The invitation rides in the OAuth state (kept encrypted in the browser's
// state cookie: lib/auth/accounts.ts), taken from GET /api/auth/sign-in/oidc?invitation=<token>.
// No session is made for a disabled user, by any way of signing in.
import { APIError, getOAuthState } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { countUsers, makeFirstAdmin, markInvitationUsed, sharedSetting, takeInvitation } from "../db/accounts.ts";
import { getDb } from "../db/client.ts";
import { log } from "../log/logger.ts";
import { openSignUp } from "./mode.ts";

export const OIDC_PROVIDER = "oidc";
/** The appSetting key the first account claims (by email/password sign-up or by OIDC). */
export const FIRST_ADMIN = "first-admin";

export type OidcSettings = { issuer: string; clientId: string; clientSecret: string; name: string };

export function oidcSettings(env: Record<string, string | undefined> = process.env): OidcSettings | null {
  const issuer = env.HINTLINE_OIDC_ISSUER?.trim().replace(/\/+$/, "");
  const clientId = env.HINTLINE_OIDC_CLIENT_ID?.trim();
  const clientSecret = env.HINTLINE_OIDC_CLIENT_SECRET;
  if (!issuer || !clientId || !clientSecret) return null;
  return { issuer, clientId, clientSecret, name: env.HINTLINE_OIDC_NAME?.trim() || new URL(issuer).host };
}

export function oidcPlugins() {
  const settings = oidcSettings();
  if (!settings) return [];
  return [
    genericOAuth({
      config: [
        {
          providerId: OIDC_PROVIDER,
          name: settings.name,
          discoveryUrl: `${settings.issuer}/.well-known/openid-configuration`,
          clientId: settings.clientId,
          clientSecret: settings.clientSecret,
          scopes: ["openid", "email", "profile"],
          // Identity comes from the id_token's claims: never accept one that was not checked against the JWKS.
          requireIdTokenVerification: true,
          disableProviderLogout: true,
        },
      ],
    }),
  ];
}

type HookContext = { path?: string } | null;
const fromOidcCallback = (context: HookContext) => context?.path?.startsWith("/callback/") === true;

// Invitations taken by a user about to be created, by email, until the user row exists to mark them with.
const taken = new Map<string, string>();

async function admit(
  user: { email: string },
  context: HookContext,
): Promise<{ data: Record<string, unknown> } | undefined> {
  if (!fromOidcCallback(context)) return;
  const email = user.email.toLowerCase();
  // Claimed, or claimed already by this person (a try that failed after the claim): the first account's.
  if ((await countUsers()) === 0 && (await sharedSetting({ key: FIRST_ADMIN, make: () => email })) === email)
    return { data: { ...user, role: "admin" } };
  if (openSignUp()) return;
  const invitation = (await getOAuthState())?.invitation;
  const id = typeof invitation === "string" && invitation ? await takeInvitation({ token: invitation }) : null;
  if (!id)
    throw new APIError("FORBIDDEN", {
      code: "invitation_required",
      message: "Signing up needs a valid invitation link from an admin.",
    });
  taken.set(email, id);
}

async function admitted(user: { id: string; email: string; role?: unknown }, context: HookContext): Promise<void> {
  if (!fromOidcCallback(context)) return;
  const email = user.email.toLowerCase();
  if (user.role === "admin") await makeFirstAdmin({ userId: user.id });
  const invitationId = taken.get(email);
  taken.delete(email);
  if (invitationId) await markInvitationUsed({ id: invitationId, userId: user.id });
  log().info(
    { event: "account_created", userId: user.id, admin: user.role === "admin", via: OIDC_PROVIDER },
    "account created",
  );
}

async function refuseDisabled(session: { userId: string }): Promise<void> {
  const user = await (await getDb()).user.findUnique({ where: { id: session.userId }, select: { banned: true } });
  if (user?.banned)
    throw new APIError("FORBIDDEN", { code: "account_disabled", message: "This account is disabled; ask an admin." });
}

export const accountsDatabaseHooks = {
  user: { create: { before: admit, after: admitted } },
  session: { create: { before: refuseDisabled } },
};
