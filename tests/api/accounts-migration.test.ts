// Switching modes on one database (a SQLite file, and PostgreSQL when TEST_POSTGRES_URL is set): what token mode stored
// belongs to the first admin when accounts mode is first switched on (no one else sees it), and switching back to token
// mode keeps everything, including what each account made meanwhile.
import { afterEach, describe, expect, it } from "vitest";
import { accountFor, invite, type SignedIn, signUp } from "../support/accounts-client.ts";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { readChunks } from "../support/chat-client.ts";
import { databaseKinds, jsonRequest, userMessage } from "./helpers.ts";

const TOKEN = "migration-test-token";
const tokenMode = { HINTLINE_AUTH_TOKEN: TOKEN };
const bearer = { authorization: `Bearer ${TOKEN}` };

describe.each(databaseKinds("accounts_migration"))("$name: from token mode to accounts and back", ({ databaseUrl }) => {
  let server: AppServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  async function call<T>(
    headers: Record<string, string>,
    method: string,
    path: string,
    body?: unknown,
    status = 200,
  ): Promise<T> {
    const response = await fetch(
      `${server!.url}${path}`,
      body === undefined ? { method, headers } : jsonRequest(method, body, headers),
    );
    const text = await response.text();
    expect(response.status, `${method} ${path}: ${text}`).toBe(status);
    return (text ? JSON.parse(text) : null) as T;
  }
  let sent = 0;
  async function chat(headers: Record<string, string>, id: string, text: string, workspaceId?: string) {
    sent += 1;
    const response = await fetch(
      `${server!.url}/api/chat`,
      jsonRequest(
        "POST",
        { id, message: userMessage(`m-${sent}`, text), ...(workspaceId ? { workspaceId } : {}) },
        headers,
      ),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    await readChunks(response);
  }
  const conversationIds = async (headers: Record<string, string>) =>
    (await call<{ id: string }[]>(headers, "GET", "/api/conversations")).map((c) => c.id).sort();
  const workspaceNames = async (headers: Record<string, string>) =>
    (await call<{ name: string }[]>(headers, "GET", "/api/workspaces")).map((w) => w.name).sort();

  it("gives token mode's data to the first admin only, and token mode again sees everything", async () => {
    // Token mode: one person's conversation, in a workspace of theirs with a memory entry.
    server = await startAppServer({ env: tokenMode, databaseUrl: await databaseUrl() });
    const { databaseUrl: url } = server;
    const space = await call<{ id: string }>(bearer, "POST", "/api/workspaces", { name: "Old space" }, 201);
    await call(bearer, "POST", `/api/workspaces/${space.id}/memory`, { text: "OLD-MEMORY" }, 201);
    await chat(bearer, "old-conv", "OLD-TEXT from token mode", space.id);
    await chat(bearer, "old-default", "OLD-TEXT in default");
    await server.stop();

    // Accounts mode on the same database: the first account takes all of it; an invited member sees none of it.
    server = await startAppServer({ env: { HINTLINE_AUTH: "accounts" }, databaseUrl: url });
    const ada: SignedIn = await signUp(server.url, accountFor("Ada"));
    expect(await conversationIds(ada.headers)).toEqual(["old-conv", "old-default"]);
    expect(await workspaceNames(ada.headers)).toEqual(["Old space", "default"]);
    expect(
      (await call<{ text: string }[]>(ada.headers, "GET", `/api/workspaces/${space.id}/memory`)).map((m) => m.text),
    ).toEqual(["OLD-MEMORY"]);
    await chat(ada.headers, "ada-conv", "Ada in accounts mode");
    const bob = await signUp(server.url, accountFor("Bob"), await invite(server.url, ada));
    expect(await conversationIds(bob.headers)).toEqual([]);
    expect(await workspaceNames(bob.headers)).toEqual(["default"]);
    await call(bob.headers, "GET", "/api/conversations/old-conv", undefined, 404);
    await chat(bob.headers, "bob-conv", "Bob in accounts mode");
    expect(await conversationIds(bob.headers)).toEqual(["bob-conv"]);
    await server.stop();

    // Token mode again: nothing was lost, and the one person with the token sees every conversation.
    server = await startAppServer({ env: tokenMode, databaseUrl: url });
    expect(await conversationIds(bearer)).toEqual(["ada-conv", "bob-conv", "old-conv", "old-default"]);
    expect((await call<{ id: string }>(bearer, "GET", "/api/conversations/bob-conv")).id).toBe("bob-conv");
    expect(await workspaceNames(bearer)).toContain("Old space");
    // Each account's private default is one more "default" now: the list names whose each is, and all are editable.
    const listed = await call<{ name: string; owner?: string; editable: boolean }[]>(bearer, "GET", "/api/workspaces");
    expect(listed.map((w) => `${w.name} · ${w.owner}`).sort()).toEqual([
      "Old space · Ada",
      "default · Ada",
      "default · Bob",
    ]);
    expect(listed.every((w) => w.editable)).toBe(true);
    await chat(bearer, "old-conv", "still usable after the round trip");
  }, 180_000);
});
