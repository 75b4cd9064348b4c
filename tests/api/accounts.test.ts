// Accounts mode's sign-up and sign-in (issue #31), against real app servers: the first account is the admin,
// invitations, open sign-up, wrong passwords limited per address (so per account and address: guesses from elsewhere
// never lock the owner out; X-Forwarded-For only behind HINTLINE_TRUST_PROXY=1), sessions refused after sign-out or a disable, session fixation, CSRF, cookie flags, and
// passwords stored hashed.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Account,
  accountFor,
  cookieOf,
  invite,
  postAuth,
  type SignedIn,
  signIn,
  signUp,
} from "../support/accounts-client.ts";
import { type AppServer, startAppServer } from "../support/app-server.ts";

const EVIL = "https://evil.example";
const session = (server: AppServer, cookie: string) =>
  fetch(`${server.url}/api/auth/get-session`, { headers: { cookie } });
const users = (server: AppServer, admin: SignedIn) =>
  fetch(`${server.url}/api/admin/users`, { headers: admin.headers });
const workspaces = async (server: AppServer, who: SignedIn) =>
  ((await (await fetch(`${server.url}/api/workspaces`, { headers: who.headers })).json()) as { name: string }[]).map(
    (w) => w.name,
  );
const wrong = (server: AppServer, email: string, headers: Record<string, string> = {}) =>
  postAuth(server.url, "sign-in/email", { email, password: "not-the-password-at-all" }, headers);
const sqlite = (server: AppServer) => new Database(server.databaseUrl.replace(/^file:/, ""), { readonly: true });

describe("accounts mode, one server", () => {
  let server: AppServer;
  let admin: SignedIn;
  const ann = accountFor("Ann");

  beforeAll(async () => {
    server = await startAppServer({ env: { HINTLINE_AUTH: "accounts" } });
    admin = await signUp(server.url, ann);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("makes the first account the admin", async () => {
    // The sign-up's own answer says so too (the page shows the admin's menu from it).
    expect(admin.user?.role).toBe("admin");
    const listed = await users(server, admin);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([
      expect.objectContaining({ id: admin.userId, email: ann.email, admin: true, disabled: false }),
    ]);
  });

  it("lets a later account sign up only with an unused invitation", async () => {
    const bob = accountFor("Bob");
    const refused = await postAuth(server.url, "sign-up/email", bob);
    expect(refused.status).toBe(403);
    expect(cookieOf(refused)).toBe("");
    const invitation = await invite(server.url, admin);
    const signedUp = await signUp(server.url, bob, invitation);
    const again = await postAuth(server.url, "sign-up/email", accountFor("Cid"));
    expect(again.status).toBe(403);
    const reused = await postAuth(server.url, "sign-up/email", { ...accountFor("Cid"), invitation });
    expect(reused.status).toBe(403);
    expect(((await reused.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    const listed = (await (await users(server, admin)).json()) as { id: string; email: string; admin: boolean }[];
    expect(listed.map((u) => [u.email, u.admin]).sort()).toEqual([
      [ann.email, true],
      [bob.email, false],
    ]);
    expect(listed.find((u) => u.email === bob.email)?.id).toBe(signedUp.userId);
    // Not an admin: the admin API is not listed to Bob.
    expect((await users(server, signedUp)).status).toBe(404);
  });

  it("keeps connections to the admin: a member gets 403 on each connections route and changes nothing, yet lists the models", async () => {
    const member = await signUp(server.url, accountFor("Connie"), await invite(server.url, admin));
    const call = (who: SignedIn, method: string, p: string, body?: unknown) =>
      fetch(`${server.url}/api/connections${p}`, {
        method,
        headers: { ...who.headers, ...(body ? { "content-type": "application/json" } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const attempt = { id: "members-lab", kind: "openai-compatible", baseUrl: "http://127.0.0.1:1/v1" };
    for (const [method, p, body] of [
      ["GET", "", undefined],
      ["POST", "", attempt],
      ["PATCH", "/members-lab", { enabled: false }],
      ["DELETE", "/members-lab", undefined],
      ["POST", "/members-lab/test", undefined],
    ] as const) {
      const response = await call(member, method, p, body);
      expect({ method, p, status: response.status }).toEqual({ method, p, status: 403 });
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/Only an admin/);
    }
    expect((await call(admin, "GET", "")).status).toBe(200);
    expect(sqlite(server).prepare(`SELECT count(*) AS n FROM "Connection"`).get()).toEqual({ n: 0 });
    expect((await fetch(`${server.url}/api/models`, { headers: member.headers })).status).toBe(200);
  });

  it("serves only its own endpoints under /api/auth: no OIDC without an issuer, none of better-auth's others", async () => {
    expect((await fetch(`${server.url}/api/auth/sign-in/oidc`, { redirect: "manual" })).status).toBe(404);
    expect((await fetch(`${server.url}/api/auth/callback/oidc?code=x&state=y`, { redirect: "manual" })).status).toBe(
      404,
    );
    for (const path of ["sign-in/social", "request-password-reset", "update-user", "revoke-sessions"]) {
      expect((await postAuth(server.url, path, { provider: "oidc" }, { cookie: admin.cookie })).status).toBe(404);
    }
  });

  it("answers a wrong password with 401 JSON and no cookie", async () => {
    const response = await wrong(server, ann.email);
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toMatch(/json/);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await response.json()).toEqual({
      error: { code: "invalid_email_or_password", message: expect.any(String) },
    });
    // better-auth's other refusals come in the API's error shape too; a refused sign-up gives its invitation back.
    const invitation = await invite(server.url, admin);
    const short = await postAuth(server.url, "sign-up/email", {
      ...accountFor("Short"),
      password: "short",
      invitation,
    });
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({ error: { code: "password_too_short", message: expect.any(String) } });
    const taken = await postAuth(server.url, "sign-up/email", { ...ann, invitation });
    expect(taken.status).toBe(422);
    expect(((await taken.json()) as { error: { code: string } }).error.code).toMatch(/^user_already_exists/);
    await signUp(server.url, accountFor("Short"), invitation);
  });

  it("refuses the API without a cookie and with a forged one", async () => {
    expect((await fetch(`${server.url}/api/conversations`)).status).toBe(401);
    for (const cookie of [
      "hintline.session_token=garbage",
      `hintline.session_token=${"a".repeat(32)}.${"b".repeat(43)}%3D`,
      "__Secure-hintline.session_token=x.y",
    ]) {
      expect((await fetch(`${server.url}/api/conversations`, { headers: { cookie } })).status).toBe(401);
    }
    // The token alone, without the cookie's signature, is not a session either.
    const token = admin.cookie.split("=")[1]!.split(".")[0]!;
    expect(
      (await fetch(`${server.url}/api/conversations`, { headers: { cookie: `hintline.session_token=${token}` } }))
        .status,
    ).toBe(401);
    expect((await fetch(`${server.url}/api/conversations`, { headers: admin.headers })).status).toBe(200);
  });

  it("refuses a cookie once its session signed out, and keeps other sessions", async () => {
    const first = await signIn(server.url, ann);
    const second = await signIn(server.url, ann);
    expect((await fetch(`${server.url}/api/conversations`, { headers: first.headers })).status).toBe(200);
    const out = await postAuth(server.url, "sign-out", {}, { cookie: first.cookie });
    expect(out.status).toBe(200);
    expect((await fetch(`${server.url}/api/conversations`, { headers: first.headers })).status).toBe(401);
    expect(await (await session(server, first.cookie)).json()).toBeNull();
    expect((await fetch(`${server.url}/api/conversations`, { headers: second.headers })).status).toBe(200);
  });

  it("issues a new session token at sign-in, never the one the client brought (session fixation)", async () => {
    const dan = accountFor("Dan");
    await signUp(server.url, dan, await invite(server.url, admin));
    const brought = ["hintline.session_token=attacker-chosen.value", admin.cookie];
    for (const cookie of brought) {
      const response = await postAuth(
        server.url,
        "sign-in/email",
        { email: dan.email, password: dan.password },
        { cookie },
      );
      expect(response.status).toBe(200);
      const issued = cookieOf(response);
      expect(issued).toMatch(/^hintline\.session_token=/);
      expect(issued).not.toBe(cookie);
      expect(((await (await session(server, issued)).json()) as { user: { email: string } }).user.email).toBe(
        dan.email,
      );
    }
    // Ann's cookie, sent along with Dan's sign-in, still names Ann (it never became Dan's).
    expect(((await (await session(server, admin.cookie)).json()) as { user: { email: string } }).user.email).toBe(
      ann.email,
    );
  });

  it("refuses cross-site sign-in, sign-up, sign-out and API writes, and nothing changes (CSRF)", async () => {
    const eve = accountFor("Eve");
    const invitation = await invite(server.url, admin);
    const cross = { origin: EVIL };
    const inAttempt = await postAuth(server.url, "sign-in/email", { email: ann.email, password: ann.password }, cross);
    const upAttempt = await postAuth(server.url, "sign-up/email", { ...eve, invitation }, cross);
    const outAttempt = await postAuth(server.url, "sign-out", {}, { ...cross, cookie: admin.cookie });
    const write = await fetch(`${server.url}/api/workspaces`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: admin.cookie, origin: EVIL },
      body: JSON.stringify({ name: "From evil" }),
    });
    // A browser's form post from another site says so in Sec-Fetch-Site even without an Origin.
    const formPost = await fetch(`${server.url}/api/auth/sign-out`, {
      method: "POST",
      headers: {
        cookie: admin.cookie,
        "sec-fetch-site": "cross-site",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "",
    });
    expect([inAttempt.status, upAttempt.status, outAttempt.status, write.status, formPost.status]).toEqual([
      403, 403, 403, 403, 403,
    ]);
    for (const response of [inAttempt, upAttempt]) expect(response.headers.getSetCookie()).toEqual([]);
    expect((await fetch(`${server.url}/api/conversations`, { headers: admin.headers })).status).toBe(200);
    expect(await workspaces(server, admin)).not.toContain("From evil");
    const listed = (await (await users(server, admin)).json()) as { email: string }[];
    expect(listed.map((u) => u.email)).not.toContain(eve.email);
    // The invitation was not spent by the refused attempt.
    await signUp(server.url, eve, invitation);
  });

  it("sets the session cookie HttpOnly, SameSite=Strict, Path=/, without Secure over plain HTTP", async () => {
    const response = await postAuth(server.url, "sign-in/email", { email: ann.email, password: ann.password });
    const [cookie] = response.headers.getSetCookie();
    expect(cookie).toMatch(/^hintline\.session_token=/);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Strict/i);
    expect(cookie).toMatch(/;\s*Path=\/(;|$)/);
    expect(cookie).not.toMatch(/;\s*Secure/i);
    // Without HINTLINE_TRUST_PROXY a client claiming HTTPS is not believed (scripts/server.mjs sets the header).
    const claimed = await postAuth(
      server.url,
      "sign-in/email",
      { email: ann.email, password: ann.password },
      { "x-forwarded-proto": "https" },
    );
    expect(claimed.headers.getSetCookie()[0]).toMatch(/^hintline\.session_token=[^;]+;(?!.*Secure)/i);
  });

  it("stores passwords hashed", () => {
    const db = sqlite(server);
    try {
      const rows = db
        .prepare("SELECT a.password FROM account a JOIN user u ON u.id = a.userId WHERE u.email = ?")
        .all(ann.email) as { password: string }[];
      expect(rows).toHaveLength(1);
      expect(rows[0]!.password).not.toContain(ann.password);
      expect(rows[0]!.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    } finally {
      db.close();
    }
  });

  it("refuses a disabled user's cookie at once, and their sign-in", async () => {
    const fay = accountFor("Fay");
    const signedUp = await signUp(server.url, fay, await invite(server.url, admin));
    const later = await signIn(server.url, fay);
    expect((await fetch(`${server.url}/api/conversations`, { headers: later.headers })).status).toBe(200);
    const disabled = await fetch(`${server.url}/api/admin/users/${signedUp.userId}`, {
      method: "PATCH",
      headers: { ...admin.headers, "content-type": "application/json" },
      body: JSON.stringify({ disabled: true }),
    });
    expect(disabled.status).toBe(200);
    for (const who of [signedUp, later])
      expect((await fetch(`${server.url}/api/conversations`, { headers: who.headers })).status).toBe(401);
    const again = await postAuth(server.url, "sign-in/email", { email: fay.email, password: fay.password });
    expect(again.status).toBe(403);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("account_disabled");
    expect(again.headers.getSetCookie()).toEqual([]);
    // Only the right password learns that the account is disabled.
    expect((await wrong(server, fay.email)).status).toBe(401);
  });

  // Last: it blocks this server's one address (127.0.0.1) for a minute.
  it("ignores X-Forwarded-For without HINTLINE_TRUST_PROXY: every guess counts against the connection's address", async () => {
    // A success clears only its own account's failures: Fay's wrong password above (a disabled account) may still count.
    await signIn(server.url, ann);
    const guesses: number[] = [];
    for (let i = 0; i < 10; i++)
      guesses.push((await wrong(server, `nobody${i}@example.test`, { "x-forwarded-for": `198.51.100.${i}` })).status);
    expect(guesses.slice(0, 9)).toEqual(Array(9).fill(401));
    expect([401, 429]).toContain(guesses[9]);
    const blocked = await postAuth(
      server.url,
      "sign-in/email",
      { email: ann.email, password: ann.password },
      { "x-forwarded-for": "203.0.113.9" },
    );
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("accounts mode behind a trusted proxy, open sign-up", () => {
  let server: AppServer;
  const from = (address: string, extra: Record<string, string> = {}) => ({ "x-forwarded-for": address, ...extra });

  beforeAll(async () => {
    server = await startAppServer({
      env: { HINTLINE_AUTH: "accounts", HINTLINE_TRUST_PROXY: "1", HINTLINE_OPEN_SIGNUP: "1" },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  async function open(name: string): Promise<Account> {
    const account = accountFor(name);
    const response = await postAuth(server.url, "sign-up/email", account, from("192.0.2.200"));
    expect(response.status).toBe(200);
    return account;
  }

  it("lets anyone sign up with HINTLINE_OPEN_SIGNUP=1", async () => {
    await open("Gus");
    await open("Hal");
  });

  it("counts wrong passwords per account and address: ten addresses guessing one account do not lock its owner out", async () => {
    const ida = await open("Ida");
    const guesses: number[] = [];
    for (let i = 0; i < 10; i++) guesses.push((await wrong(server, ida.email, from(`198.51.100.${i}`))).status);
    expect(guesses).toEqual(Array(10).fill(401));
    // An eleventh guess from elsewhere is only a wrong password, and Ida signs in from her own address.
    expect((await wrong(server, ida.email, from("198.51.100.50"))).status).toBe(401);
    const right = await postAuth(
      server.url,
      "sign-in/email",
      { email: ida.email, password: ida.password },
      from("198.51.100.51"),
    );
    expect(right.status).toBe(200);
    expect(cookieOf(right)).toMatch(/session_token=./);
  });

  it("limits wrong passwords per address, across accounts", async () => {
    const guesses: number[] = [];
    for (let i = 0; i < 10; i++)
      guesses.push((await wrong(server, `someone${i}@example.test`, from("203.0.113.7"))).status);
    expect(guesses).toEqual(Array(10).fill(401));
    const hal = accountFor("Hal");
    const blocked = await postAuth(
      server.url,
      "sign-in/email",
      { email: hal.email, password: hal.password },
      from("203.0.113.7"),
    );
    expect(blocked.status).toBe(429);
    const wait = Number(blocked.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(blocked.headers.getSetCookie()).toEqual([]);
    expect(((await blocked.json()) as { error: { message: string } }).error.message).toMatch(
      /^Too many failed sign-in attempts from your address; try again in \d+ s\.$/,
    );
    // The proxy's entry is the last one: an address a client put in front of it does not change whose guess it is.
    expect(
      (
        await postAuth(
          server.url,
          "sign-in/email",
          { email: hal.email, password: hal.password },
          from("10.9.9.9, 203.0.113.7"),
        )
      ).status,
    ).toBe(429);
    expect(
      (await postAuth(server.url, "sign-in/email", { email: hal.email, password: hal.password }, from("203.0.113.8")))
        .status,
    ).toBe(200);
  });

  it("sets a Secure, __Secure- prefixed cookie when the proxy says the request came over HTTPS", async () => {
    const gus = accountFor("Gus");
    const response = await postAuth(
      server.url,
      "sign-in/email",
      { email: gus.email, password: gus.password },
      from("192.0.2.1", { "x-forwarded-proto": "https", origin: server.url.replace("http:", "https:") }),
    );
    expect(response.status).toBe(200);
    const [cookie] = response.headers.getSetCookie();
    expect(cookie).toMatch(/^__Secure-hintline\.session_token=/);
    for (const flag of [/;\s*Secure/i, /;\s*HttpOnly/i, /;\s*SameSite=Strict/i, /;\s*Path=\/(;|$)/])
      expect(cookie).toMatch(flag);
    const https = { cookie: cookieOf(response), "x-forwarded-proto": "https" };
    expect((await fetch(`${server.url}/api/conversations`, { headers: https })).status).toBe(200);
  });
});
