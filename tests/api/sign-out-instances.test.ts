// Signing out reaches every instance (issue #24): two servers on one database (a SQLite file, and PostgreSQL when
// TEST_POSTGRES_URL is set); a session signed out on A is refused on B at once, for reads, writes and pages, though B
// had already accepted it (a per-process copy of the revoked sessions would still let it in). On PostgreSQL the limit on
// wrong bearer tokens counts the guesses sent to both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat } from "../support/chat-client.ts";
import { bearerFrom, databaseKinds, jsonRequest } from "./helpers.ts";

const TOKEN = "two-instances";
const env = { HINTLINE_AUTH_TOKEN: TOKEN };

describe.each(databaseKinds("signout"))("$name: signing out on one instance", ({ name, databaseUrl }) => {
  let a: AppServer;
  let b: AppServer;

  beforeAll(async () => {
    a = await startAppServer({ env, databaseUrl: await databaseUrl() });
    b = await startAppServer({ env, databaseUrl: a.databaseUrl });
    const seeded = await chat(a.url, {
      conversationId: "shared",
      text: "hello",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(seeded.response.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  async function signIn(server: AppServer): Promise<string> {
    const response = await fetch(`${server.url}/api/auth/sign-in`, jsonRequest("POST", { token: TOKEN }));
    expect(response.status).toBe(200);
    return (response.headers.get("set-cookie") ?? "").split(";")[0]!;
  }

  const read = async (server: AppServer, cookie: string) =>
    (await fetch(`${server.url}/api/conversations`, { headers: { cookie } })).status;
  const write = async (server: AppServer, cookie: string, title: string) =>
    (
      await fetch(
        `${server.url}/api/conversations/shared`,
        jsonRequest("PATCH", { title }, { cookie, origin: server.url }),
      )
    ).status;

  it("refuses the cookie on the other instance for reads, writes, chat and pages", async () => {
    const [cookie, other] = [await signIn(a), await signIn(b)];
    // Both instances have accepted the cookie (and so have looked up the revoked sessions) before the sign-out.
    expect([await read(a, cookie), await read(b, cookie), await write(b, cookie, "Before")]).toEqual([200, 200, 200]);
    const out = await fetch(`${a.url}/api/auth/sign-out`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: a.url },
    });
    expect(out.status).toBe(303);

    expect(await read(b, cookie)).toBe(401);
    expect(await write(b, cookie, "After")).toBe(401);
    const reply = await chat(b.url, { conversationId: "after-sign-out", text: "hello", headers: { cookie } });
    expect(reply.response.status).toBe(401);
    const page = await fetch(`${b.url}/c/shared`, { redirect: "manual", headers: { cookie } });
    expect(page.status).toBe(307);
    expect(await read(a, cookie)).toBe(401);
    const title = await fetch(`${b.url}/api/conversations/shared`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(((await title.json()) as { title: string }).title).toBe("Before");
    // Another session stays signed in on both.
    expect([await read(a, other), await read(b, other)]).toEqual([200, 200]);
  });

  it("limits wrong bearer tokens from one address across both instances on PostgreSQL", async () => {
    // PostgreSQL: five wrong tokens on each instance make the ten of the limit. SQLite keeps one process: each instance
    // counts its own (here all ten on A).
    const shared = name === "PostgreSQL";
    const wrong = [];
    for (let i = 0; i < 10; i++)
      wrong.push((await bearerFrom(shared && i % 2 ? b.url : a.url, "127.0.0.5", `guess-${i}`)).status);
    expect(wrong).toEqual(Array(10).fill(401));
    const limited = shared ? [a, b] : [a];
    for (const server of limited) {
      const next = await bearerFrom(server.url, "127.0.0.5", "guess-10");
      expect(next.status).toBe(429);
      expect(next.retryAfter).toBeGreaterThanOrEqual(1);
      expect((await bearerFrom(server.url, "127.0.0.5", TOKEN)).status).toBe(429);
    }
    // The owner's address is not limited on either.
    expect([
      (await bearerFrom(a.url, "127.0.0.1", TOKEN)).status,
      (await bearerFrom(b.url, "127.0.0.1", TOKEN)).status,
    ]).toEqual([200, 200]);
  });
});
