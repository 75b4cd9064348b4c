// Accounts mode's sign-up, sign-in and sessions, by better-auth on this app's database (its Prisma adapter). Sessions
// live in the database and are looked up on every request (no cookie cache), so a sign-out or an admin disabling a
// user takes effect on every instance at once. One auth instance per origin the app is reached on (a handful: the
// proxy only serves loopback names and HINTLINE_ALLOWED_HOSTS), so links and cookie flags follow the request.
import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { BoundedMap } from "../bounded-map.ts";
import { databaseUrl, getDb, isPostgresUrl } from "../db/client.ts";
import { sharedSetting } from "../db/accounts.ts";
import { ACCOUNTS_COOKIE_PREFIX } from "./accounts-cookie.ts";
import { accountsDatabaseHooks, oidcPlugins } from "./oidc.ts";
import { SESSION_MAX_AGE_SECONDS, viaHttps } from "./token.ts";

export const MIN_PASSWORD_LENGTH = 10;

async function secret(): Promise<string> {
  return (
    process.env.HINTLINE_AUTH_SECRET ||
    sharedSetting({ key: "auth-secret", make: () => randomBytes(32).toString("base64url") })
  );
}

async function createAuth(origin: string) {
  const db = await getDb();
  return betterAuth({
    appName: "Hintline",
    baseURL: origin,
    basePath: "/api/auth",
    secret: await secret(),
    trustedOrigins: [origin],
    database: prismaAdapter(db, { provider: isPostgresUrl(databaseUrl()) ? "postgresql" : "sqlite" }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: 256,
      autoSignIn: true,
    },
    session: { expiresIn: SESSION_MAX_AGE_SECONDS, updateAge: 24 * 60 * 60, cookieCache: { enabled: false } },
    user: {
      additionalFields: {
        role: { type: "string", required: false, input: false },
        banned: { type: "boolean", required: false, input: false },
      },
    },
    // lib/auth/sign-in-limit.ts counts failures per address and account (the address as scripts/server.mjs gives it).
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    plugins: oidcPlugins(),
    // An OIDC start keeps its state (PKCE verifier, nonce, an invitation) encrypted in the browser's state cookie, not
    // in a database row: anonymous starts, which anyone may send by the thousand, store nothing.
    account: { storeStateStrategy: "cookie" },
    // An OIDC callback that fails before its state is read goes back to the sign-in page with ?error=<code>.
    onAPIError: { errorURL: `${origin}/sign-in` },
    databaseHooks: accountsDatabaseHooks,
    advanced: {
      cookiePrefix: ACCOUNTS_COOKIE_PREFIX,
      useSecureCookies: origin.startsWith("https:"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "strict" },
      // The OIDC state cookie must come back on the issuer's redirect, a navigation from another site.
      cookies: { oauth_state: { name: `${ACCOUNTS_COOKIE_PREFIX}.state`, attributes: { sameSite: "lax" } } },
    },
  });
}

type Auth = Awaited<ReturnType<typeof createAuth>>;

const holder = globalThis as unknown as { __hintlineAccounts?: BoundedMap<string, Promise<Auth>> };

/** The origin the browser used (scripts/server.mjs sets X-Forwarded-Proto from the connection or a trusted proxy). */
export function requestOrigin(request: Request): string {
  const host = request.headers.get("host") ?? new URL(request.url).host;
  return `${viaHttps(request) ? "https" : "http"}://${host}`;
}

export function accountsAuth(request: Request): Promise<Auth> {
  holder.__hintlineAccounts ??= new BoundedMap({ maxEntries: 16 });
  const origin = requestOrigin(request);
  let auth = holder.__hintlineAccounts.get(origin);
  if (!auth) {
    auth = createAuth(origin);
    auth.catch(() => holder.__hintlineAccounts?.delete(origin));
    holder.__hintlineAccounts.set(origin, auth);
  }
  return auth;
}

export type SignedIn = { userId: string; email: string; name: string; admin: boolean };

/** The user a request's session cookie names, when the session is live and the user not disabled. */
export async function signedInUser(request: Request): Promise<SignedIn | null> {
  const auth = await accountsAuth(request);
  const found = await auth.api.getSession({ headers: request.headers });
  if (!found) return null;
  const user = found.user as typeof found.user & { role?: string | null; banned?: boolean | null };
  if (user.banned) return null;
  return { userId: user.id, email: user.email, name: user.name, admin: user.role === "admin" };
}
