// Access control with HINTLINE_AUTH_TOKEN: bearer tokens, the sign-in cookie, cross-origin refusal of JSON writes,
// open routes when no token is configured, the sign-in limiter keyed by the connection's address (X-Forwarded-For
// only behind HINTLINE_TRUST_PROXY=1), Secure cookies behind HTTPS and frame protection. The refusal of every route
// and page without valid credentials, and of cross-site form posts, is in access.test.ts.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import {
  bearerFrom,
  type ConversationSummary,
  type ConversationView,
  databaseKinds,
  expectApiError,
  jsonRequest,
} from "./helpers.ts";

const TOKEN = "s3cret";
const bearer = { authorization: `Bearer ${TOKEN}` };

describe("with HINTLINE_AUTH_TOKEN", () => {
  let server: AppServer;

  beforeAll(async () => {
    server = await startAppServer({ env: { HINTLINE_AUTH_TOKEN: TOKEN } });
    const { response } = await chat(server.url, { conversationId: "x", text: "hello", headers: bearer });
    expect(response.status).toBe(200);
  });

  afterAll(async () => {
    await server?.stop();
  });

  async function signIn(): Promise<string> {
    const response = await fetch(`${server.url}/api/auth/sign-in`, jsonRequest("POST", { token: TOKEN }));
    expect(response.status).toBe(200);
    const setCookie = response.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^hintline_session=[^;]+;/);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Strict/i);
    return setCookie.split(";")[0]!;
  }

  const title = async () =>
    (await getJson<ConversationView>(`${server.url}/api/conversations/x`, { headers: bearer })).body.title;

  it("serves the sign-in page without credentials", async () => {
    const signInPage = await fetch(`${server.url}/sign-in`, { redirect: "manual" });
    expect(signInPage.status).toBe(200);
    expect(signInPage.headers.get("content-type")).toMatch(/text\/html/);
  });

  it("serves pages and API routes to the right bearer token", async () => {
    const page = await fetch(`${server.url}/c/page-check`, { redirect: "manual", headers: bearer });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect((await getJson(`${server.url}/api/model`, { headers: bearer })).status).toBe(200);
    const reply = await chat(server.url, {
      conversationId: "with-bearer",
      text: "write 3 words about rain",
      headers: bearer,
    });
    expect(reply.response.status).toBe(200);
    expect(reply.text.trim().split(/\s+/)).toHaveLength(3);
  });

  it("refuses sign-in with a wrong token", async () => {
    const response = await fetch(`${server.url}/api/auth/sign-in`, jsonRequest("POST", { token: "guess" }));
    expect(response.headers.get("set-cookie")).toBeNull();
    await expectApiError(response, 401, "unauthorized");
  });

  it("accepts the session cookie alone for reads and for chat", async () => {
    const cookie = await signIn();
    const listed = await getJson<ConversationSummary[]>(`${server.url}/api/conversations`, { headers: { cookie } });
    expect(listed.status).toBe(200);
    expect(listed.body.map((c) => c.id)).toContain("x");
    const page = await fetch(`${server.url}/c/page-check`, { redirect: "manual", headers: { cookie } });
    expect(page.status).toBe(200);
    const reply = await chat(server.url, {
      conversationId: "with-cookie",
      text: "write 4 words about snow",
      headers: { cookie },
    });
    expect(reply.response.status).toBe(200);
    expect(reply.text.trim().split(/\s+/)).toHaveLength(4);
  });

  it("refuses a cookie-authenticated write from a foreign origin", async () => {
    const cookie = await signIn();
    const response = await fetch(
      `${server.url}/api/conversations/x`,
      jsonRequest("PATCH", { title: "Hacked" }, { cookie, origin: "http://evil.example" }),
    );
    await expectApiError(response, 403, "forbidden");
    expect(await title()).toBe("Hello");
  });

  it("refuses a cookie-authenticated write from an opaque (null) origin with a 403", async () => {
    const cookie = await signIn();
    const response = await fetch(
      `${server.url}/api/conversations/x`,
      jsonRequest("PATCH", { title: "Hacked" }, { cookie, origin: "null" }),
    );
    await expectApiError(response, 403, "forbidden");
    expect(await title()).toBe("Hello");
  });

  it("accepts a cookie-authenticated write from the app's own origin", async () => {
    const cookie = await signIn();
    const response = await fetch(
      `${server.url}/api/conversations/x`,
      jsonRequest("PATCH", { title: "Renamed here" }, { cookie, origin: server.url }),
    );
    expect(response.status).toBe(200);
    expect(await title()).toBe("Renamed here");
  });

  it("signs in from the form with a cookie and a redirect that stays on the same origin", async () => {
    const response = await fetch(`${server.url}/api/auth/sign-in`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ token: TOKEN, next: "/c/x" }),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("set-cookie")).toMatch(/^hintline_session=[^;]+;/);
    const location = new URL(response.headers.get("location") ?? "", server.url);
    expect(location.pathname).toBe("/c/x");
    expect(location.origin).toBe(server.url);
  });

  it("sends the browser only to a same-site path after sign-in, whatever `next` holds", async () => {
    const page = await fetch(`${server.url}/sign-in?next=%2F%09%2Fevil.example`, { redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<input type="hidden" name="next" value="\/"\/>/);
    // A full-width solidus (U+FF0F) answered 500: a Location header cannot hold it. It stays, percent-encoded, a path.
    const fullWidth = await fetch(`${server.url}/api/auth/sign-in`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ token: TOKEN, next: "/\uff0fevil.example" }),
    });
    expect({ status: fullWidth.status, location: fullWidth.headers.get("location") }).toEqual({
      status: 303,
      location: "/%EF%BC%8Fevil.example",
    });
    expect((await fetch(`${server.url}/sign-in?next=%2F%EF%BC%8Fevil.example`, { redirect: "manual" })).status).toBe(
      200,
    );
    for (const next of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/a\nb",
      "/\r\nSet-Cookie: x=1",
      "/\\evil.example",
      "//evil.example",
    ]) {
      const response = await fetch(`${server.url}/api/auth/sign-in`, {
        method: "POST",
        redirect: "manual",
        body: new URLSearchParams({ token: TOKEN, next }),
      });
      expect({ next, status: response.status, location: response.headers.get("location") }).toEqual({
        next,
        status: 303,
        location: "/",
      });
    }
    const wrong = await fetch(`${server.url}/api/auth/sign-in`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ token: "guess", next: "/a\nb" }),
    });
    expect({ status: wrong.status, location: wrong.headers.get("location") }).toEqual({
      status: 303,
      location: "/sign-in?error=1&next=%2F",
    });
  });
});

const databases = databaseKinds("auth");

describe.each(databases)("$name: signing out", ({ databaseUrl }) => {
  let server: AppServer;

  beforeAll(async () => {
    server = await startAppServer({ env: { HINTLINE_AUTH_TOKEN: TOKEN }, databaseUrl: await databaseUrl() });
  });

  afterAll(async () => {
    await server?.stop();
  });

  async function signIn(): Promise<string> {
    const response = await fetch(`${server.url}/api/auth/sign-in`, jsonRequest("POST", { token: TOKEN }));
    expect(response.status).toBe(200);
    return (response.headers.get("set-cookie") ?? "").split(";")[0]!;
  }

  const statusWith = async (cookie: string) =>
    (await fetch(`${server.url}/api/conversations`, { headers: { cookie } })).status;

  it("revokes that session's cookie, also after a restart, and leaves other sessions signed in", async () => {
    const [signedOut, other] = [await signIn(), await signIn()];
    expect(signedOut).not.toBe(other);
    expect(await statusWith(signedOut)).toBe(200);
    const response = await fetch(`${server.url}/api/auth/sign-out`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: signedOut, origin: server.url },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("set-cookie")).toMatch(/^hintline_session=;.*Max-Age=0/);
    expect(await statusWith(signedOut)).toBe(401);
    const page = await fetch(`${server.url}/c/x`, { redirect: "manual", headers: { cookie: signedOut } });
    expect(page.status).toBe(307);
    expect(await statusWith(other)).toBe(200);

    await server.stop();
    server = await startAppServer({ env: { HINTLINE_AUTH_TOKEN: TOKEN }, databaseUrl: server.databaseUrl });
    expect(await statusWith(signedOut)).toBe(401);
    expect(await statusWith(other)).toBe(200);
  });
});

describe("without HINTLINE_AUTH_TOKEN", () => {
  let server: AppServer;

  beforeAll(async () => {
    server = await startAppServer();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("serves pages and API routes without credentials", async () => {
    expect((await fetch(`${server.url}/c/page-check`, { redirect: "manual" })).status).toBe(200);
    expect((await getJson(`${server.url}/api/model`)).status).toBe(200);
    const reply = await chat(server.url, { conversationId: "open", text: "write 2 words about sun" });
    expect(reply.response.status).toBe(200);
    expect(reply.text.trim().split(/\s+/)).toHaveLength(2);
    const listed = await getJson<ConversationSummary[]>(`${server.url}/api/conversations`);
    expect(listed.body.map((c) => c.id)).toEqual(["open"]);
    const renamed = await fetch(
      `${server.url}/api/conversations/open`,
      jsonRequest("PATCH", { title: "Open" }, { origin: server.url }),
    );
    expect(renamed.status).toBe(200);
  });
});

type Answer = { status: number; headers: http.IncomingHttpHeaders };

/** A JSON sign-in sent from a given loopback address (127.0.0.2 stands for another machine than the owner's). */
function signInFrom(
  baseUrl: string,
  localAddress: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/api/auth/sign-in",
        localAddress,
        headers: { "content-type": "application/json", ...headers },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify({ token }));
  });
}

describe("the sign-in limiter without HINTLINE_TRUST_PROXY", () => {
  let server: AppServer;

  beforeAll(async () => {
    server = await startAppServer({ env: { HINTLINE_AUTH_TOKEN: TOKEN } });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("counts failures by the connection's address: a forged X-Forwarded-For neither locks the owner out nor lets anyone out", async () => {
    // Someone on another machine sends ten wrong tokens, naming the owner's address.
    for (let i = 0; i < 10; i++) {
      expect((await signInFrom(server.url, "127.0.0.2", `guess-${i}`, { "x-forwarded-for": "127.0.0.1" })).status).toBe(
        401,
      );
    }
    const limited = await signInFrom(server.url, "127.0.0.2", "guess-10");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    // Naming another address does not get them out, not even with the right token.
    expect((await signInFrom(server.url, "127.0.0.2", TOKEN, { "x-forwarded-for": "203.0.113.50" })).status).toBe(429);
    // The owner, on their own machine, signs in.
    expect((await signInFrom(server.url, "127.0.0.1", TOKEN)).status).toBe(200);
  });

  it("counts wrong bearer tokens like failed sign-ins: ten a minute from one address, then 429 without comparing", async () => {
    // Before, a wrong token was a 401 however fast they came (1,280 a second, never a 429).
    const wrong = [];
    for (let i = 0; i < 12; i++) wrong.push((await bearerFrom(server.url, "127.0.0.4", `guess-${i}`)).status);
    expect(wrong).toEqual([...Array(10).fill(401), 429, 429]);
    const flood = await Promise.all(
      Array.from({ length: 100 }, (_, i) => bearerFrom(server.url, "127.0.0.4", `flood-${i}`, "/api/conversations")),
    );
    expect(new Set(flood.map((a) => a.status))).toEqual(new Set([429]));
    expect(Math.min(...flood.map((a) => a.retryAfter))).toBeGreaterThanOrEqual(1);
    expect(Math.max(...flood.map((a) => a.retryAfter))).toBeLessThanOrEqual(60);
    // From there the right token is not even compared, and sign-in is limited too.
    expect((await bearerFrom(server.url, "127.0.0.4", TOKEN)).status).toBe(429);
    expect((await signInFrom(server.url, "127.0.0.4", TOKEN)).status).toBe(429);
    // The right token is never counted: the owner, on their own machine, is not limited however often they call.
    const owner = await Promise.all(Array.from({ length: 50 }, () => bearerFrom(server.url, "127.0.0.1", TOKEN)));
    expect(new Set(owner.map((a) => a.status))).toEqual(new Set([200]));
  });

  it("gives no Secure cookie for an X-Forwarded-Proto a client sent over plain HTTP, and frames no page", async () => {
    const answer = await signInFrom(server.url, "127.0.0.3", TOKEN, { "x-forwarded-proto": "https" });
    expect(answer.status).toBe(200);
    expect(String(answer.headers["set-cookie"])).not.toMatch(/;\s*Secure/i);
    const page = await fetch(`${server.url}/sign-in`);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
  });
});

describe("the sign-in limiter with HINTLINE_TRUST_PROXY=1 (behind a reverse proxy)", () => {
  let server: AppServer;

  beforeAll(async () => {
    server = await startAppServer({ env: { HINTLINE_AUTH_TOKEN: TOKEN, HINTLINE_TRUST_PROXY: "1" } });
  });

  afterAll(async () => {
    await server?.stop();
  });

  const from = (address: string, token: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/auth/sign-in`, jsonRequest("POST", { token }, { "x-forwarded-for": address, ...headers }));

  it("answers failed sign-ins past ten a minute from one address with 429 and Retry-After, other addresses unaffected", async () => {
    for (let i = 0; i < 10; i++) await expectApiError(await from("203.0.113.7", `guess-${i}`), 401, "unauthorized");
    const limited = await from("203.0.113.7", "guess-10");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(await expectApiError(limited, 429, "too_many_requests")).toMatch(
      /Too many failed sign-in attempts; try again in \d+ s/,
    );
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Not even the right token is looked at from there until the minute is over; another address signs in.
    await expectApiError(await from("203.0.113.7", TOKEN), 429, "too_many_requests");
    expect((await from("203.0.113.8", TOKEN)).status).toBe(200);
    // The proxy appends the address it saw: what the client put before it does not count.
    await expectApiError(await from("203.0.113.8, 203.0.113.7", TOKEN), 429, "too_many_requests");
    expect((await from("203.0.113.7, 203.0.113.9", TOKEN)).status).toBe(200);
  });

  it("marks the cookie Secure when the proxy says the client came over HTTPS", async () => {
    const secure = await from("203.0.113.20", TOKEN, { "x-forwarded-proto": "https" });
    expect(secure.headers.get("set-cookie")).toMatch(/;\s*Secure/i);
    const plain = await from("203.0.113.21", TOKEN, { "x-forwarded-proto": "http" });
    expect(plain.headers.get("set-cookie")).not.toMatch(/;\s*Secure/i);
  });
});
