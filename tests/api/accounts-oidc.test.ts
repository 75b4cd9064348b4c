// OpenID Connect sign-in in accounts mode against a real local issuer (tests/support/oidc-issuer.ts), the redirect
// dance done by hand with fetch: GET /api/auth/sign-in/oidc → the issuer's authorize → /api/auth/callback/oidc →
// session cookie. A first sign-in follows sign-up's rules (first account admin, later ones need an invitation unless
// HINTLINE_OPEN_SIGNUP=1); a disabled user, a forged id_token and a callback without the browser's state cookie get
// no session; a start stores nothing (its state rides, encrypted, in the browser's cookie).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieOf, invite, type SignedIn, signIn, signUp } from "../support/accounts-client.ts";
import { type AppServer, freePort, startAppServer } from "../support/app-server.ts";
import { type OidcIssuer, type OidcUser, startOidcIssuer } from "../support/oidc-issuer.ts";
import { snapshotDatabase } from "./helpers.ts";

const person = (name: string): OidcUser => ({
  sub: `sub-${name.toLowerCase()}`,
  email: `${name.toLowerCase()}@idp.test`,
  name,
});

function oidcEnv(issuer: OidcIssuer, extra: Record<string, string> = {}) {
  return {
    HINTLINE_AUTH: "accounts",
    HINTLINE_OIDC_ISSUER: issuer.url,
    HINTLINE_OIDC_CLIENT_ID: issuer.clientId,
    HINTLINE_OIDC_CLIENT_SECRET: issuer.clientSecret,
    ...extra,
  };
}

type Dance = { start: Response; callback: Response; cookie: string };

/** The browser's part: follow the start to the issuer and back to the callback, carrying the state cookie. */
async function oidcSignIn(
  server: AppServer,
  issuer: OidcIssuer,
  user: OidcUser,
  { invitation, dropStateCookie = false }: { invitation?: string; dropStateCookie?: boolean } = {},
): Promise<Dance> {
  issuer.user = user;
  const start = await fetch(
    `${server.url}/api/auth/sign-in/oidc${invitation ? `?invitation=${encodeURIComponent(invitation)}` : ""}`,
    { redirect: "manual" },
  );
  expect(start.status).toBe(302);
  const authorizeUrl = start.headers.get("location")!;
  expect(authorizeUrl.startsWith(`${issuer.url}/authorize?`)).toBe(true);
  const authorize = await fetch(authorizeUrl, { redirect: "manual" });
  expect(authorize.status).toBe(302);
  const callbackUrl = authorize.headers.get("location")!;
  expect(callbackUrl.startsWith(`${server.url}/api/auth/callback/oidc?`)).toBe(true);
  const callback = await fetch(callbackUrl, {
    redirect: "manual",
    headers: dropStateCookie ? {} : { cookie: cookieOf(start) },
  });
  const cookie = callback.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .filter((pair) => /session_token=./.test(pair))
    .join("; ");
  return { start, callback, cookie };
}

async function sessionUser(
  server: AppServer,
  cookie: string,
): Promise<{ id: string; email: string; name: string } | null> {
  const body = (await (await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie } })).json()) as {
    user: { id: string; email: string; name: string };
  } | null;
  return body?.user ?? null;
}

const signedInAs = (server: AppServer, cookie: string, userId: string): SignedIn => ({
  userId,
  cookie,
  headers: { cookie, origin: server.url },
});
type Listed = { id: string; email: string; admin: boolean; disabled: boolean };
const users = async (server: AppServer, admin: SignedIn) =>
  (await (await fetch(`${server.url}/api/admin/users`, { headers: admin.headers })).json()) as Listed[];

describe("OIDC sign-in, invitations required", () => {
  let issuer: OidcIssuer;
  let server: AppServer;
  let admin: SignedIn;
  const ann = person("Ann");

  beforeAll(async () => {
    issuer = await startOidcIssuer({ user: ann });
    server = await startAppServer({ env: oidcEnv(issuer) });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await issuer?.close();
  });

  it("signs the first person in as the admin, with PKCE, a nonce and a Lax state cookie", async () => {
    const { start, callback, cookie } = await oidcSignIn(server, issuer, ann);
    const state = start.headers.getSetCookie().find((line) => line.startsWith("hintline.state="));
    expect(state).toMatch(/;\s*SameSite=Lax/i);
    expect(state).toMatch(/;\s*HttpOnly/i);
    const asked = issuer.authorizeRequests.at(-1)!;
    expect(asked.get("scope")?.split(" ").sort()).toEqual(["email", "openid", "profile"]);
    expect(asked.get("code_challenge_method")).toBe("S256");
    expect(asked.get("nonce")).toBeTruthy();
    expect(asked.get("redirect_uri")).toBe(`${server.url}/api/auth/callback/oidc`);
    // A page that moves on by itself (a same-site navigation, which carries the SameSite=Strict cookie).
    expect(callback.status).toBe(200);
    expect(await callback.text()).toContain('http-equiv="refresh" content="0;url=/"');
    const sessionCookie = callback.headers.getSetCookie().find((line) => line.startsWith("hintline.session_token="))!;
    for (const flag of [/;\s*HttpOnly/i, /;\s*SameSite=Strict/i, /;\s*Path=\/(;|$)/])
      expect(sessionCookie).toMatch(flag);
    const user = await sessionUser(server, cookie);
    expect(user).toMatchObject({ email: ann.email, name: "Ann" });
    admin = signedInAs(server, cookie, user!.id);
    expect(await users(server, admin)).toEqual([expect.objectContaining({ email: ann.email, admin: true })]);
    expect((await fetch(`${server.url}/api/conversations`, { headers: admin.headers })).status).toBe(200);
  });

  it("signs a returning person in to the same account", async () => {
    const { cookie } = await oidcSignIn(server, issuer, ann);
    expect((await sessionUser(server, cookie))?.id).toBe(admin.userId);
    expect(await users(server, admin)).toHaveLength(1);
  });

  it("refuses a new person without an invitation, and admits one with it, once", async () => {
    const bob = person("Bob");
    const refused = await oidcSignIn(server, issuer, bob);
    expect(refused.callback.status).toBe(302);
    expect(refused.callback.headers.get("location")).toMatch(/\/sign-in\?error=invitation_required/);
    expect(refused.cookie).toBe("");
    expect((await users(server, admin)).map((u) => u.email)).toEqual([ann.email]);

    const invitation = await invite(server.url, admin);
    const admitted = await oidcSignIn(server, issuer, bob, { invitation });
    expect(admitted.callback.status).toBe(200);
    // The invitation rides in the state cookie encrypted, never in clear.
    expect(admitted.start.headers.getSetCookie().join("\n")).not.toContain(invitation);
    expect(await sessionUser(server, admitted.cookie)).toMatchObject({ email: bob.email });
    expect((await users(server, admin)).find((u) => u.email === bob.email)).toMatchObject({
      admin: false,
      disabled: false,
    });

    const reused = await oidcSignIn(server, issuer, person("Cid"), { invitation });
    expect(reused.cookie).toBe("");
    expect(reused.callback.headers.get("location")).toMatch(/\/sign-in\?error=invitation_required/);
    expect((await users(server, admin)).map((u) => u.email).sort()).toEqual([ann.email, bob.email]);
  });

  it("gives a disabled user no session by OIDC", async () => {
    const bob = person("Bob");
    const { cookie } = await oidcSignIn(server, issuer, bob);
    const id = (await sessionUser(server, cookie))!.id;
    const disabled = await fetch(`${server.url}/api/admin/users/${id}`, {
      method: "PATCH",
      headers: { ...admin.headers, "content-type": "application/json" },
      body: JSON.stringify({ disabled: true }),
    });
    expect(disabled.status).toBe(200);
    expect(await sessionUser(server, cookie)).toBeNull();
    const again = await oidcSignIn(server, issuer, bob);
    expect(again.cookie).toBe("");
    expect(again.callback.headers.get("location")).toMatch(/\/sign-in\?error=account_disabled/);
  });

  it("does not sign an OIDC person in to the password account of the same email (its email was never verified)", async () => {
    const dee = person("Dee");
    const password = { email: dee.email, password: "Dee-correct-horse-battery", name: "Dee" };
    const own = await signUp(server.url, password, await invite(server.url, admin));
    const taken = await oidcSignIn(server, issuer, dee);
    expect(taken.cookie).toBe("");
    expect(taken.callback.headers.get("location")).toMatch(/\/sign-in\?error=account_not_linked/);
    // The account is untouched: still one, signed in by its password.
    expect((await signIn(server.url, password)).userId).toBe(own.userId);
    expect((await users(server, admin)).filter((u) => u.email === dee.email)).toHaveLength(1);
  });

  it("gives no session for an id_token the issuer's keys did not sign", async () => {
    issuer.forgeSignature = true;
    try {
      const forged = await oidcSignIn(server, issuer, ann);
      expect(forged.cookie).toBe("");
      expect(forged.callback.status).toBe(302);
      expect(forged.callback.headers.get("location")).toMatch(/\/sign-in\?error=/);
    } finally {
      issuer.forgeSignature = false;
    }
  });

  it("stores nothing for starts that never come back: anonymous starts cannot fill the database", async () => {
    const before = snapshotDatabase(server.databaseUrl);
    const starts = await Promise.all(
      Array.from({ length: 40 }, () =>
        fetch(`${server.url}/api/auth/sign-in/oidc?invitation=x`, { redirect: "manual" }),
      ),
    );
    expect(starts.map((s) => s.status)).toEqual(Array(40).fill(302));
    expect(snapshotDatabase(server.databaseUrl)).toEqual(before);
  });

  it("gives no session to a callback without the state cookie of the browser that started it (login CSRF)", async () => {
    const { callback, cookie } = await oidcSignIn(server, issuer, ann, { dropStateCookie: true });
    expect(cookie).toBe("");
    expect(callback.headers.get("location")).toMatch(/\/sign-in\?error=state_mismatch/);
  });
});

describe("OIDC sign-in with HINTLINE_OPEN_SIGNUP=1", () => {
  let issuer: OidcIssuer;
  let server: AppServer;

  beforeAll(async () => {
    issuer = await startOidcIssuer({ user: person("Dan") });
    server = await startAppServer({ env: oidcEnv(issuer, { HINTLINE_OPEN_SIGNUP: "1" }) });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await issuer?.close();
  });

  it("admits anyone; only the first is the admin", async () => {
    const first = await oidcSignIn(server, issuer, person("Dan"));
    const second = await oidcSignIn(server, issuer, person("Eve"));
    const dan = await sessionUser(server, first.cookie);
    expect(await sessionUser(server, second.cookie)).toMatchObject({ email: "eve@idp.test" });
    const listed = await users(server, signedInAs(server, first.cookie, dan!.id));
    expect(listed.map((u) => [u.email, u.admin]).sort()).toEqual([
      ["dan@idp.test", true],
      ["eve@idp.test", false],
    ]);
  });
});

describe("OIDC sign-in while the issuer is down", () => {
  let issuer: OidcIssuer | undefined;
  let server: AppServer;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    server = await startAppServer({
      env: {
        HINTLINE_AUTH: "accounts",
        HINTLINE_OIDC_ISSUER: url,
        HINTLINE_OIDC_CLIENT_ID: "hintline-test",
        HINTLINE_OIDC_CLIENT_SECRET: "issuer-secret",
      },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await issuer?.close();
  });

  it("sends the person back to the sign-in page, and signs them in once the issuer answers", async () => {
    const start = await fetch(`${server.url}/api/auth/sign-in/oidc`, { redirect: "manual" });
    expect(start.status).toBe(303);
    expect(start.headers.get("location")).toBe("/sign-in?error=oidc_unavailable");
    issuer = await startOidcIssuer({ user: person("Gil"), port });
    const { callback, cookie } = await oidcSignIn(server, issuer, person("Gil"));
    expect(callback.status).toBe(200);
    expect(await sessionUser(server, cookie)).toMatchObject({ email: "gil@idp.test" });
  });
});
