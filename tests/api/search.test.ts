// The sidebar's search through the real server, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: titles and the
// text of settled messages through the database's full-text index, the last word as a prefix, within a workspace,
// with a snippet; messages that leave (an edit's branch, a deleted conversation) leave the index; bad queries are 400.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { getJson, readChunks } from "../support/chat-client.ts";
import { type OpenAIFake, startOpenAIFake } from "../support/openai-fake.ts";
import { databaseKinds, expectApiError, jsonRequest, userMessage } from "./helpers.ts";

type Match = {
  id: string;
  title: string;
  workspaceId: string;
  match: { messageId: string; snippet: string } | { title: true };
};

describe.each(databaseKinds("search"))("$name: search", ({ databaseUrl }) => {
  let fake: OpenAIFake;
  let server: AppServer;
  let seq = 0;
  let other = "";
  const tag = Date.now().toString(36);
  const api = (path: string) => `${server.url}/api${path}`;
  const search = async (q: string, workspaceId?: string) =>
    (
      await getJson<Match[]>(
        api(`/conversations?q=${encodeURIComponent(q)}${workspaceId ? `&workspaceId=${workspaceId}` : ""}`),
      )
    ).body;
  async function send(id: string, text: string, reply: string, extra: object = {}) {
    const messageId = `s${seq++}`;
    fake.enqueue({ text: reply });
    const response = await fetch(
      api("/chat"),
      jsonRequest("POST", { id, message: userMessage(messageId, text), ...extra }),
    );
    expect(response.status).toBe(200);
    await readChunks(response);
    return messageId;
  }

  beforeAll(async () => {
    fake = await startOpenAIFake();
    server = await startAppServer({ env: providerEnv(fake.url), databaseUrl: await databaseUrl() });
    other = (await getJson<{ id: string }>(api("/workspaces"), jsonRequest("POST", { name: `Other ${tag}` }))).body.id;
    await send(`a-${tag}`, "hello", "hi");
    expect(
      (await fetch(api(`/conversations/a-${tag}`), jsonRequest("PATCH", { title: "Trip to Prague" }))).status,
    ).toBe(200);
    await send(
      `b-${tag}`,
      "Notes on rivers",
      "Where the river meets the sea the delta widens near the estuary, slowly.",
    );
    await send(`c-${tag}`, "Rocks?", "Mostly granite and some basalt.");
    await send(`d-${tag}`, "Another delta", "Yes, a delta.", { workspaceId: other });
    await send(`f-${tag}`, "旅行の計画", "我们明天去北京旅游，然后去上海。東京タワーにも行きました。Then Kyoto.");
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("finds titles and message text, the last word as a prefix, with a snippet", async () => {
    expect((await search("prague")).map((m) => [m.id, m.match])).toEqual([[`a-${tag}`, { title: true }]]);
    const delta = await search("DELTA estuary", "default");
    expect(delta.map((m) => m.id)).toEqual([`b-${tag}`]);
    expect(delta[0]!.match).toMatchObject({
      snippet: "Where the river meets the sea the delta widens near the estuary, slowly.",
    });
    expect((await search("gran")).map((m) => m.id)).toEqual([`c-${tag}`]);
    expect((await search("delta")).map((m) => m.id).sort()).toEqual([`b-${tag}`, `d-${tag}`].sort());
    expect((await search("delta", other)).map((m) => m.id)).toEqual([`d-${tag}`]);
    expect(await search("delta granite")).toEqual([]);
    // Words only: query syntax is never passed through.
    expect(await search('"delta" OR NEAR(x')).toEqual([]);
  });

  it("finds Chinese and Japanese anywhere in a message, not only at the start of a run of it", async () => {
    const found = async (q: string, workspaceId?: string) => (await search(q, workspaceId)).map((m) => m.id);
    for (const q of ["北京", "上海", "去北京旅游", "タワー", "京タワーにも", "北京 上海", "上海 kyoto", "Kyo上海"])
      expect({ q, ids: await found(q) }).toEqual({ q, ids: [`f-${tag}`] });
    const hit = (await search("上海"))[0]!;
    expect(hit.match).toMatchObject({ snippet: expect.stringContaining("然后去上海。") });
    expect(await found("計画")).toEqual([`f-${tag}`]); // the title
    expect(await found("北京 delta")).toEqual([]);
    expect(await found("南京")).toEqual([]);
    expect(await found("上海", other)).toEqual([]);
    expect(await found("上海", "default")).toEqual([`f-${tag}`]);
  });

  it("forgets what leaves the conversation: an edit's old branch, a deleted conversation", async () => {
    const id = `e-${tag}`;
    await send(id, "crossings", "ok"); // the title: the first message
    const zebra = await send(id, "a zebra crossing", "ok");
    expect((await search("zebra")).map((m) => m.id)).toEqual([id]);
    await send(id, "a horse crossing", "ok", { editOf: zebra });
    expect(await search("zebra")).toEqual([]);
    expect((await search("horse")).map((m) => m.id)).toEqual([id]);
    expect((await fetch(api(`/conversations/${id}`), { method: "DELETE" })).status).toBe(204);
    expect(await search("horse")).toEqual([]);
  });

  it("refuses a query with no words, a long one and an unknown workspace", async () => {
    expect(await expectApiError(await fetch(api("/conversations?q=%21%21")), 400, "bad_request")).toMatch(
      /no words to look for/,
    );
    await expectApiError(await fetch(api(`/conversations?q=${"a".repeat(201)}`)), 400, "bad_request");
    expect((await fetch(api(`/conversations?q=${"abcd ".repeat(40)}`))).status).toBe(200); // 200 characters: the search box's limit
    await expectApiError(await fetch(api("/conversations?q=delta&workspaceId=nope")), 404, "not_found");
  });
});
