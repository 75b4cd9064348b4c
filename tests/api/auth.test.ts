// Access control with HINTLINE_AUTH_TOKEN: bearer tokens, the sign-in cookie, cross-site refusal, and open routes
// when no token is configured.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import { type ConversationSummary, type ConversationView, expectApiError, jsonRequest, userMessage } from "./helpers.ts";

const TOKEN = "s3cret";
const bearer = { authorization: `Bearer ${TOKEN}` };

type Route = { name: string; method: string; path: string; body?: unknown };
const routes: Route[] = [
  { name: "list conversations", method: "GET", path: "/api/conversations" },
  { name: "model info", method: "GET", path: "/api/model" },
  { name: "chat", method: "POST", path: "/api/chat", body: { id: "sneaky", message: userMessage("s1", "hello") } },
  { name: "get a conversation", method: "GET", path: "/api/conversations/x" },
  { name: "rename a conversation", method: "PATCH", path: "/api/conversations/x", body: { title: "Hacked" } },
  { name: "delete a conversation", method: "DELETE", path: "/api/conversations/x" },
  { name: "export a conversation", method: "GET", path: "/api/conversations/x/export" },
  {
    name: "import a conversation",
    method: "POST",
    path: "/api/conversations/import",
    body: { version: 1, conversation: { id: "smuggled", messages: [userMessage("i1", "hi")] } },
  },
];

function send(baseUrl: string, route: Route, headers: Record<string, string> = {}): Promise<Response> {
  const init = route.body === undefined ? { method: route.method, headers } : jsonRequest(route.method, route.body, headers);
  return fetch(`${baseUrl}${route.path}`, init);
}

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

  it.each(routes)("refuses to $name without credentials", async (route) => {
    await expectApiError(await send(server.url, route), 401, "unauthorized");
  });

  it.each(routes)("refuses to $name with a wrong bearer token", async (route) => {
    await expectApiError(await send(server.url, route, { authorization: "Bearer s3cret-not" }), 401, "unauthorized");
  });

  it("refuses a forged session cookie", async () => {
    const response = await fetch(`${server.url}/api/conversations`, { headers: { cookie: "hintline_session=forged" } });
    await expectApiError(response, 401, "unauthorized");
  });

  it("left everything unchanged after the refused requests", async () => {
    const { status, body } = await getJson<ConversationSummary[]>(`${server.url}/api/conversations`, { headers: bearer });
    expect(status).toBe(200);
    expect(body.map((c) => c.id)).toEqual(["x"]);
    expect(await title()).toBe("hello");
  });

  it("redirects pages to the sign-in page", async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: "Bearer wrong" }];
    for (const headers of attempts) {
      const response = await fetch(`${server.url}/`, { redirect: "manual", headers });
      expect(response.status).toBeGreaterThanOrEqual(300);
      expect(response.status).toBeLessThan(400);
      expect(new URL(response.headers.get("location") ?? "", server.url).pathname).toBe("/sign-in");
    }
    const signInPage = await fetch(`${server.url}/sign-in`, { redirect: "manual" });
    expect(signInPage.status).toBe(200);
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
