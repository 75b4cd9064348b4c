// The sidebar's search through the real server, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: titles and the
// text of settled messages (and of their text and PDF attachments) through the database's full-text index, the last
// word as a prefix, within a workspace or across all (`scope=all`, each result naming its workspace), with a snippet in
// plain text; messages that leave (an edit's branch, a deleted conversation) leave the index; bad queries are 400.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { getJson, readChunks } from "../support/chat-client.ts";
import { type OpenAIFake, startOpenAIFake } from "../support/openai-fake.ts";
import { dataUrl, tinyPdf } from "../support/tiny-pdf.ts";
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
  const searchAll = async (q: string) =>
    (await getJson<Match[]>(api(`/conversations?q=${encodeURIComponent(q)}&scope=all`))).body;
  async function send(id: string, text: string, reply: string, extra: object = {}, files: object[] = []) {
    const messageId = `s${seq++}`;
    fake.enqueue({ text: reply });
    const message = userMessage(messageId, text);
    const response = await fetch(
      api("/chat"),
      jsonRequest("POST", { id, message: { ...message, parts: [...files, ...message.parts] }, ...extra }),
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
    await send(`g-${tag}`, "Packing", "Noted.", {}, [
      { type: "file", mediaType: "text/plain", filename: "list.txt", url: dataUrl("text/plain", "Tent\nquokka food") },
      {
        type: "file",
        mediaType: "application/pdf",
        filename: "guide.pdf",
        url: dataUrl("application/pdf", tinyPdf(["Welcome", "The marula tree grows here"])),
      },
    ]);
    await send(`i-${tag}`, "Two lines", "First line\nzeppelin airship");
    await send(
      `h-${tag}`,
      "Format it",
      "## Walrus facts\n\n- **Tusks** grow `long` — see [the walrus page](https://example.com/walrus) and ![a walrus](https://example.com/w.png)\n\n```js\nconst x = 1;\n```",
    );
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("finds titles and message text (a word after a line break too), the last word as a prefix, with a snippet", async () => {
    expect((await search("prague")).map((m) => [m.id, m.match])).toEqual([[`a-${tag}`, { title: true }]]);
    const delta = await search("DELTA estuary", "default");
    expect(delta.map((m) => m.id)).toEqual([`b-${tag}`]);
    expect(delta[0]!.match).toMatchObject({
      snippet: "Where the river meets the sea the delta widens near the estuary, slowly.",
    });
    expect((await search("gran")).map((m) => m.id)).toEqual([`c-${tag}`]);
    // PostgreSQL read a message's text as JSON, where a line break is "\n": the word after it was indexed as "nzeppelin".
    expect((await search("zeppelin")).map((m) => m.id)).toEqual([`i-${tag}`]);
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

  it("searches every workspace with scope=all, each result naming its workspace", async () => {
    const delta = await searchAll("delta");
    expect(delta.map((m) => [m.id, m.workspaceId]).sort()).toEqual(
      [
        [`b-${tag}`, "default"],
        [`d-${tag}`, other],
      ].sort(),
    );
    expect((await searchAll("北京")).map((m) => [m.id, m.workspaceId])).toEqual([[`f-${tag}`, "default"]]);
    expect(
      await expectApiError(
        await fetch(api(`/conversations?q=delta&scope=all&workspaceId=${other}`)),
        400,
        "bad_request",
      ),
    ).toMatch(/scope/);
    expect(
      await expectApiError(await fetch(api("/conversations?q=delta&scope=everything")), 400, "bad_request"),
    ).toMatch(/scope/);
  });

  it("finds the text of text and PDF attachments", async () => {
    for (const q of ["quokka", "tent", "marula tree", "welcome"]) {
      const found = await searchAll(q);
      expect({ q, ids: found.map((m) => m.id) }).toEqual({ q, ids: [`g-${tag}`] });
    }
    expect((await search("quokka"))[0]!.match).toMatchObject({ snippet: expect.stringContaining("quokka food") });
    expect((await search("marula"))[0]!.match).toMatchObject({ snippet: expect.stringContaining("marula tree") });
    expect((await search("tusks")).map((m) => m.id)).toEqual([`h-${tag}`]);
  });

  it("gives snippets in plain text: no markdown marks, links as their text", async () => {
    const [hit] = await search("tusks");
    expect(hit!.match).toEqual({
      messageId: expect.any(String),
      snippet: "Walrus facts Tusks grow long — see the walrus page and a walrus const x = 1;",
    });
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
