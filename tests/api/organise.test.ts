// Organising conversations through the real server, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: pinned ones
// first, archived ones out of the list (listed with ?archived=true) yet found by search, bad input refused with
// nothing changed, and the export of several at once as one bundle that imports back whole (or not at all), into the
// workspace ?workspaceId= names (an unknown one refused by name, nothing stored).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { getJson } from "../support/chat-client.ts";
import { databaseKinds, expectApiError, jsonRequest } from "./helpers.ts";

type Summary = { id: string; title: string; updatedAt: string; pinned: boolean; archived: boolean };
type Exported = {
  id: string;
  title: string;
  messages: Array<{ id: string; parts: Array<{ text?: string }> }>;
  pinned: boolean;
  archived: boolean;
};
type Bundle = { version: number; exportedAt: string; conversations: Exported[] };

describe.each(databaseKinds("organise"))("$name: organising conversations", ({ databaseUrl }) => {
  let server: AppServer;
  const tag = Date.now().toString(36);
  const ids = ["a", "b", "c"].map((x) => `${x}-${tag}`);
  const [a, b, c] = ids as [string, string, string];
  const api = (path: string) => `${server.url}/api${path}`;
  const list = async (query = "") => (await getJson<Summary[]>(api(`/conversations${query}`))).body;
  const listIds = async (query = "") => (await list(query)).map((s) => s.id).filter((id) => id.endsWith(tag));
  const patch = (id: string, body: unknown) => fetch(api(`/conversations/${id}`), jsonRequest("PATCH", body));
  const conversation = (id: string, word: string) => ({
    id,
    title: `Chat ${word}`,
    messages: [
      { id: `${id}-u`, role: "user", parts: [{ type: "text", text: `Tell me about ${word}` }] },
      { id: `${id}-a`, role: "assistant", parts: [{ type: "text", text: `${word} is a word.` }] },
    ],
  });

  beforeAll(async () => {
    server = await startAppServer({ databaseUrl: await databaseUrl() });
    // Imported one after the other: c is the newest, a the oldest.
    for (const [i, id] of ids.entries()) {
      const response = await fetch(
        api("/conversations/import"),
        jsonRequest("POST", { version: 1, conversation: conversation(id, ["apricot", "bramble", "cobalt"][i]!) }),
      );
      expect(response.status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("lists pinned conversations first, and pinning keeps a conversation's place in time", async () => {
    expect(await listIds()).toEqual([c, b, a]);
    const before = (await list()).find((s) => s.id === a)!;
    expect(before).toMatchObject({ pinned: false, archived: false });
    const response = await patch(a, { pinned: true });
    expect(response.status).toBe(200);
    expect(await listIds()).toEqual([a, c, b]);
    const after = (await list()).find((s) => s.id === a)!;
    expect(after).toMatchObject({ pinned: true, updatedAt: before.updatedAt });
    expect((await patch(a, { pinned: false })).status).toBe(200);
    expect(await listIds()).toEqual([c, b, a]);
  });

  it("leaves archived conversations out of the list, lists them with ?archived=true, and search still finds them", async () => {
    expect((await patch(b, { archived: true })).status).toBe(200);
    expect(await listIds()).toEqual([c, a]);
    expect(await listIds("?archived=true")).toEqual([b]);
    expect(await listIds("?archived=false")).toEqual([c, a]);
    expect(await listIds("?archived=true&workspaceId=default")).toEqual([b]);
    // Found by its title and by its messages, saying it is archived.
    for (const q of ["bramble", "Chat bramble"]) {
      const found = (await getJson<Summary[]>(api(`/conversations?q=${encodeURIComponent(q)}`))).body;
      expect(found.map((s) => [s.id, s.archived])).toEqual([[b, true]]);
    }
    const other = (await getJson<Summary[]>(api("/conversations?q=cobalt"))).body;
    expect(other.map((s) => [s.id, s.archived])).toEqual([[c, false]]);
    // Opened directly it is all there; unarchived it is back in its place.
    expect((await getJson(api(`/conversations/${b}`))).status).toBe(200);
    expect((await patch(b, { archived: false })).status).toBe(200);
    expect(await listIds()).toEqual([c, b, a]);
    expect(await listIds("?archived=true")).toEqual([]);
  });

  it("refuses bad input with a 400 naming the field, changing nothing", async () => {
    const snapshot = JSON.stringify(await list());
    const cases: Array<[unknown, RegExp]> = [
      [{ pinned: "true" }, /pinned.*true or false/],
      [{ archived: 1 }, /archived.*true or false/],
      [{ pinned: null }, /pinned/],
      [{ pinned: true, archived: "yes" }, /archived/],
      [{ pinned: true, starred: true }, /starred/],
      [{}, /pinned/],
      [[true], /body/],
    ];
    for (const [body, message] of cases) {
      expect(await expectApiError(await patch(a, body), 400, "bad_request")).toMatch(message);
    }
    expect(await expectApiError(await fetch(api("/conversations?archived=yes")), 400, "bad_request")).toMatch(
      /archived/,
    );
    expect(await expectApiError(await patch(`nope-${tag}`, { pinned: true }), 404, "not_found")).toContain(
      `nope-${tag}`,
    );
    expect(JSON.stringify(await list())).toBe(snapshot);
  });

  it("exports several conversations as one bundle that imports back whole", async () => {
    expect((await patch(a, { pinned: true })).status).toBe(200);
    expect((await patch(b, { archived: true })).status).toBe(200);
    const response = await fetch(api("/conversations/export"), jsonRequest("POST", { ids: [a, b, a] }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(
      /attachment; filename="hintline-2-conversations\.json"/,
    );
    const bundle = (await response.json()) as Bundle;
    expect(bundle.version).toBe(1);
    expect(bundle.conversations.map((x) => [x.id, x.title, x.pinned, x.archived])).toEqual([
      [a, "Chat apricot", true, false],
      [b, "Chat bramble", false, true],
    ]);
    // Each as GET /:id/export gives it.
    const single = (await getJson<{ conversation: Exported }>(api(`/conversations/${a}/export`))).body.conversation;
    expect(bundle.conversations[0]).toEqual(single);

    const imported = await getJson<{ ids: string[] }>(api("/conversations/import"), jsonRequest("POST", bundle));
    expect(imported.status).toBe(201);
    const [copyA, copyB] = imported.body.ids;
    // The ids were taken: the copies get new ones (and two copies never share one).
    expect(copyA).not.toBe(a);
    expect(copyB).not.toBe(b);
    expect(copyA).not.toBe(copyB);
    const again = (
      await getJson<{ conversations: Exported[] }>(
        api("/conversations/export"),
        jsonRequest("POST", { ids: [copyA, copyB] }),
      )
    ).body;
    const content = (x: Exported) => [x.title, x.pinned, x.archived, x.messages.map((m) => [m.id, m.parts])];
    expect(again.conversations.map(content)).toEqual(bundle.conversations.map(content));
    expect((await list()).find((s) => s.id === copyA)).toMatchObject({ pinned: true, archived: false });
    expect((await list("?archived=true")).map((s) => s.id)).toContain(copyB);
  });

  it("refuses an unknown id, bad ids and a bad bundle whole: nothing is exported or imported", async () => {
    const missing = await expectApiError(
      await fetch(api("/conversations/export"), jsonRequest("POST", { ids: [a, `gone-${tag}`] })),
      404,
      "not_found",
    );
    expect(missing).toContain(`gone-${tag}`);
    expect(missing).not.toContain(a);
    const bad: Array<[unknown, RegExp]> = [
      [{ ids: [] }, /ids.*at least one/],
      [{ ids: "a" }, /ids/],
      [{ ids: ["../etc"] }, /ids\.0/],
      [{ ids: Array.from({ length: 101 }, (_, i) => `x${i}`) }, /at most 100/],
      [{ ids: [a], extra: 1 }, /extra/],
    ];
    for (const [body, message] of bad) {
      expect(
        await expectApiError(await fetch(api("/conversations/export"), jsonRequest("POST", body)), 400, "bad_request"),
      ).toMatch(message);
    }
    expect((await fetch(api("/conversations/export"))).status).toBe(405);

    const before = JSON.stringify([await list(), await list("?archived=true")]);
    const good = conversation(`d-${tag}`, "damson");
    // The second conversation is broken: neither is imported.
    const broken = {
      version: 1,
      conversations: [
        good,
        { ...conversation(`e-${tag}`, "elder"), messages: [{ id: "m", role: "system", parts: [] }] },
      ],
    };
    expect(
      await expectApiError(await fetch(api("/conversations/import"), jsonRequest("POST", broken)), 400, "bad_request"),
    ).toMatch(/conversations\.1\.messages/);
    const duplicate = {
      version: 1,
      conversations: [
        good,
        { ...conversation(`f-${tag}`, "fig"), tasks: [{ id: "1", subject: "x", status: "pending", blocks: ["9"] }] },
      ],
    };
    expect(
      await expectApiError(
        await fetch(api("/conversations/import"), jsonRequest("POST", duplicate)),
        400,
        "bad_request",
      ),
    ).toMatch(/conversations\.1\.tasks\.0\.blocks/);
    for (const body of [
      { version: 1, conversations: [] },
      { version: 2, conversations: [good] },
      { version: 1, conversations: "x" },
    ]) {
      await expectApiError(await fetch(api("/conversations/import"), jsonRequest("POST", body)), 400, "bad_request");
    }
    expect(JSON.stringify([await list(), await list("?archived=true")])).toBe(before);
    expect((await getJson(api(`/conversations/d-${tag}`))).status).toBe(404);
  });

  it("imports into the workspace ?workspaceId= names, one conversation or a bundle; an unknown one is refused by name with nothing stored", async () => {
    const created = await getJson<{ id: string }>(api("/workspaces"), jsonRequest("POST", { name: `Imports ${tag}` }));
    expect(created.status).toBe(201);
    const workspaceId = created.body.id;
    const workspaceOf = async (id: string) =>
      (await getJson<{ workspaceId: string }>(api(`/conversations/${id}`))).body.workspaceId;
    const into = (workspace: string, body: unknown) =>
      fetch(api(`/conversations/import?workspaceId=${encodeURIComponent(workspace)}`), jsonRequest("POST", body));

    const one = await into(workspaceId, { version: 1, conversation: conversation(`${tag}-w1`, "juniper") });
    expect(one.status).toBe(201);
    const { id } = (await one.json()) as { id: string };
    expect(await workspaceOf(id)).toBe(workspaceId);
    const bundle = {
      version: 1,
      conversations: [conversation(`${tag}-w2`, "kelp"), conversation(`${tag}-w3`, "lime")],
    };
    const many = await into(workspaceId, bundle);
    expect(many.status).toBe(201);
    const { ids } = (await many.json()) as { ids: string[] };
    expect((await list(`?workspaceId=${workspaceId}`)).map((c) => c.id).sort()).toEqual([id, ...ids].sort());
    // "default" is the default workspace, as everywhere; without the parameter, the import lands there as before.
    const plain = await into("default", { version: 1, conversation: conversation(`${tag}-w4`, "mint") });
    expect(await workspaceOf(((await plain.json()) as { id: string }).id)).toBe("default");

    const before = JSON.stringify([await list(), await list("?archived=true")]);
    const file = { version: 1, conversation: conversation(`${tag}-w5`, "nettle") };
    for (const unknown of [`ws_gone${tag}`, "user-nobody"]) {
      expect(await expectApiError(await into(unknown, file), 404, "not_found")).toBe(
        `Workspace ${unknown} does not exist.`,
      );
    }
    for (const bad of ["", "../default", "x".repeat(65)]) {
      expect(await expectApiError(await into(bad, file), 400, "bad_request")).toMatch(/^Invalid workspaceId: /);
    }
    expect(await expectApiError(await into(`ws_gone${tag}`, bundle), 404, "not_found")).toContain(`ws_gone${tag}`);
    expect(JSON.stringify([await list(), await list("?archived=true")])).toBe(before);
    expect((await getJson(api(`/conversations/${tag}-w5`))).status).toBe(404);
  });
});
