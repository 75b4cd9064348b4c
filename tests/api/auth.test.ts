// Access control with HINTLINE_AUTH_TOKEN: bearer tokens, the sign-in cookie, cross-origin refusal of JSON writes, and
// open routes when no token is configured. The refusal of every route and page without valid credentials, and of
// cross-site form posts, is in access.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import { type ConversationSummary, type ConversationView, expectApiError, jsonRequest } from "./helpers.ts";

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

  const title = async () => (await getJson<ConversationView>(`${server.url}/api/conversations/x`, { headers: bearer })).body.title;

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
    const reply = await chat(server.url, { conversationId: "with-bearer", text: "write 3 words about rain", headers: bearer });
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
    const reply = await chat(server.url, { conversationId: "with-cookie", text: "write 4 words about snow", headers: { cookie } });
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
    expect(await title()).toBe("hello");
  });

  it("refuses a cookie-authenticated write from an opaque (null) origin with a 403", async () => {
    const cookie = await signIn();
    const response = await fetch(`${server.url}/api/conversations/x`, jsonRequest("PATCH", { title: "Hacked" }, { cookie, origin: "null" }));
    await expectApiError(response, 403, "forbidden");
    expect(await title()).toBe("hello");
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
    const renamed = await fetch(`${server.url}/api/conversations/open`, jsonRequest("PATCH", { title: "Open" }, { origin: server.url }));
    expect(renamed.status).toBe(200);
  });
});
