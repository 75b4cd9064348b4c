// The workspace routes (workspaces, memory, knowledge files, skills, MCP server URLs without
// HINTLINE_MCP_ALLOW_PRIVATE) and a conversation's workspace, against a real `next start` on SQLite and on PostgreSQL
// (when TEST_POSTGRES_URL is set). Bad input gets a 4xx naming the problem and stores nothing.
import http from "node:http";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { getJson, readChunks } from "../support/chat-client.ts";
import { countRows, databaseKinds, expectApiError, jsonRequest, userMessage } from "./helpers.ts";

type Workspace = { id: string; name: string; instructions?: string; createdAt: string; updatedAt: string };
type Entry = { id: string; text: string; author: string; createdAt: string; updatedAt: string };
type FileInfo = { path: string; bytes: number; tokens: number; updatedAt: string };
type Skill = { name: string; description: string; instructions: string };

const kinds = databaseKinds("workspaces");

const text = (body: string, type = "text/markdown") => ({ method: "PUT", headers: { "content-type": type }, body });

/** A PUT sent byte for byte (fetch would resolve "%2e%2e" itself); its status. */
function rawPut(baseUrl: string, path: string): Promise<number> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, method: "PUT", path, headers: { "content-type": "text/plain" } },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end("x");
  });
}

describe.each(kinds)("$name: workspaces", ({ databaseUrl }) => {
  let server: AppServer;
  beforeAll(async () => {
    // As an operator runs it: a workspace's MCP server may not be at a loopback, private or link-local address.
    server = await startAppServer({ databaseUrl: await databaseUrl(), env: { HINTLINE_MCP_ALLOW_PRIVATE: undefined } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const api = (path: string) => `${server.url}/api${path}`;
  const newWorkspace = async (name: string) => {
    const { status, body } = await getJson<Workspace>(
      api("/workspaces"),
      jsonRequest("POST", { name, instructions: "Be brief." }),
    );
    expect(status).toBe(201);
    return body;
  };
  it("has a default workspace; creates, renames, edits and deletes others", async () => {
    const list = await getJson<Workspace[]>(api("/workspaces"));
    expect(list.body.map((w) => [w.id, w.name])).toEqual([["default", "default"]]);
    const ws = await newWorkspace("Research");
    expect(ws).toMatchObject({ name: "Research", instructions: "Be brief." });
    expect(ws.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    const patched = await getJson<Workspace>(
      api(`/workspaces/${ws.id}`),
      jsonRequest("PATCH", { name: "Research 2", instructions: "Cite sources." }),
    );
    expect(patched).toMatchObject({
      status: 200,
      body: { id: ws.id, name: "Research 2", instructions: "Cite sources." },
    });
    expect((await getJson<Workspace>(api(`/workspaces/${ws.id}`))).body).toMatchObject({
      name: "Research 2",
      instructions: "Cite sources.",
    });
    expect((await getJson<Workspace[]>(api("/workspaces"))).body.map((w) => w.name)).toEqual(["default", "Research 2"]);
    expect((await fetch(api(`/workspaces/${ws.id}`), { method: "DELETE" })).status).toBe(204);
    await expectApiError(await fetch(api(`/workspaces/${ws.id}`)), 404, "not_found");
    expect((await getJson<Workspace[]>(api("/workspaces"))).body.map((w) => w.id)).toEqual(["default"]);
  });

  it("refuses a taken name, deleting default and deleting a workspace that still has conversations", async () => {
    const ws = await newWorkspace("Taken");
    expect(
      await expectApiError(await fetch(api("/workspaces"), jsonRequest("POST", { name: "Taken" })), 409, "conflict"),
    ).toMatch(/"Taken" already exists/);
    expect(
      await expectApiError(await fetch(api("/workspaces/default"), { method: "DELETE" }), 409, "conflict"),
    ).toMatch(/default workspace cannot be deleted/);
    expect(
      await expectApiError(
        await fetch(api("/workspaces/default"), jsonRequest("PATCH", { name: "other" })),
        400,
        "bad_request",
      ),
    ).toMatch(/cannot be renamed/);
    const response = await fetch(
      api("/chat"),
      jsonRequest("POST", { id: "in-taken", message: userMessage("m-in-taken", "hello"), workspaceId: ws.id }),
    );
    expect(response.status).toBe(200);
    await readChunks(response);
    const refused = await expectApiError(
      await fetch(api(`/workspaces/${ws.id}`), { method: "DELETE" }),
      409,
      "conflict",
    );
    expect(refused).toMatch(/still has 1 conversation/);
    expect((await getJson(api(`/workspaces/${ws.id}`))).status).toBe(200);
    expect((await fetch(api("/conversations/in-taken"), { method: "DELETE" })).status).toBe(204);
    expect((await fetch(api(`/workspaces/${ws.id}`), { method: "DELETE" })).status).toBe(204);
  });

  it("starts a conversation in a workspace, lists it under that workspace only, and refuses an unknown one", async () => {
    const ws = await newWorkspace("Chats");
    const inWs = await fetch(
      api("/chat"),
      jsonRequest("POST", { id: "c-ws", message: userMessage("m-c-ws", "hello"), workspaceId: ws.id }),
    );
    expect(inWs.status).toBe(200);
    await readChunks(inWs);
    const plain = await fetch(
      api("/chat"),
      jsonRequest("POST", { id: "c-default", message: userMessage("m-c-default", "hello") }),
    );
    await readChunks(plain);
    // A later message naming another workspace does not move the conversation.
    const later = await fetch(
      api("/chat"),
      jsonRequest("POST", { id: "c-ws", message: userMessage("m-c-ws-2", "again"), workspaceId: "default" }),
    );
    await readChunks(later);
    expect((await getJson(api("/conversations/c-ws"))).body.workspaceId).toBe(ws.id);
    expect((await getJson(api("/conversations/c-default"))).body.workspaceId).toBe("default");
    const listed = async (query: string) =>
      (await getJson<{ id: string; workspaceId: string }[]>(api(`/conversations${query}`))).body;
    expect((await listed(`?workspaceId=${ws.id}`)).map((c) => c.id)).toEqual(["c-ws"]);
    expect((await listed("?workspaceId=default")).map((c) => c.id)).toContain("c-default");
    expect((await listed("?workspaceId=default")).map((c) => c.id)).not.toContain("c-ws");
    expect((await listed("")).find((c) => c.id === "c-ws")?.workspaceId).toBe(ws.id);
    await expectApiError(await fetch(api("/conversations?workspaceId=nope")), 404, "not_found");
    await expectApiError(await fetch(api("/conversations?workspaceId=a%20b")), 400, "bad_request");
    const unknown = await fetch(
      api("/chat"),
      jsonRequest("POST", { id: "c-unknown", message: userMessage("m-c-unknown", "hello"), workspaceId: "nope" }),
    );
    expect(await expectApiError(unknown, 404, "not_found")).toMatch(/Workspace nope does not exist/);
    await expectApiError(await fetch(api("/conversations/c-unknown")), 404, "not_found");
  });

  it("keeps memory entries with their author; a duplicate after normalising case and spaces is refused naming the entry", async () => {
    const ws = await newWorkspace("Memory");
    const url = api(`/workspaces/${ws.id}/memory`);
    const first = await getJson<Entry>(url, jsonRequest("POST", { text: "Prefers metric units" }));
    expect(first).toMatchObject({ status: 201, body: { text: "Prefers metric units", author: "person" } });
    const second = await getJson<Entry>(url, jsonRequest("POST", { text: "Works in Berlin" }));
    const duplicate = await expectApiError(
      await fetch(url, jsonRequest("POST", { text: "  prefers   METRIC units " })),
      409,
      "conflict",
    );
    expect(duplicate).toContain(first.body.id);
    expect(duplicate).toContain('"Prefers metric units"');
    const edited = await getJson<Entry>(`${url}/${second.body.id}`, jsonRequest("PATCH", { text: "Works in Munich" }));
    expect(edited).toMatchObject({ status: 200, body: { id: second.body.id, text: "Works in Munich" } });
    await expectApiError(
      await fetch(`${url}/${second.body.id}`, jsonRequest("PATCH", { text: "PREFERS metric units" })),
      409,
      "conflict",
    );
    await expectApiError(await fetch(url, jsonRequest("POST", { text: "two\nlines" })), 400, "bad_request");
    await expectApiError(await fetch(url, jsonRequest("POST", { text: "x".repeat(1001) })), 400, "bad_request");
    expect((await fetch(`${url}/${first.body.id}`, { method: "DELETE" })).status).toBe(204);
    await expectApiError(await fetch(`${url}/${first.body.id}`, { method: "DELETE" }), 404, "not_found");
    // Entries are per workspace: another workspace's entry id is not found here.
    await expectApiError(
      await fetch(`${api("/workspaces/default/memory")}/${second.body.id}`, { method: "DELETE" }),
      404,
      "not_found",
    );
    expect((await getJson<Entry[]>(url)).body.map((e) => [e.text, e.author])).toEqual([["Works in Munich", "person"]]);
  });

  it("replaces the whole memory from text with PATCH: unchanged lines keep their entry, bad text changes nothing", async () => {
    const ws = await newWorkspace("Memory text");
    const url = api(`/workspaces/${ws.id}/memory`);
    const kept = await getJson<Entry>(url, jsonRequest("POST", { text: "Prefers metric units" }));
    await getJson<Entry>(url, jsonRequest("POST", { text: "Works in Berlin" }));
    const patched = await getJson<{ memory: string }>(
      api(`/workspaces/${ws.id}`),
      jsonRequest("PATCH", { memory: "Prefers metric units\n\n  Has a cat  \r\nLikes tea" }),
    );
    expect(patched).toMatchObject({ status: 200, body: { memory: "Prefers metric units\nHas a cat\nLikes tea" } });
    const entries = (await getJson<Entry[]>(url)).body;
    expect(entries.map((e) => e.text)).toEqual(["Prefers metric units", "Has a cat", "Likes tea"]);
    expect(entries[0]!.id).toBe(kept.body.id);
    expect((await getJson<{ memory: string }>(api(`/workspaces/${ws.id}`))).body.memory).toBe(
      "Prefers metric units\nHas a cat\nLikes tea",
    );
    const before = (await getJson<Entry[]>(url)).body;
    const repeated = await expectApiError(
      await fetch(api(`/workspaces/${ws.id}`), jsonRequest("PATCH", { memory: "A\nB\n a " })),
      400,
      "bad_request",
    );
    expect(repeated).toMatch(/entry 3 repeats entry 1/);
    const long = await expectApiError(
      await fetch(api(`/workspaces/${ws.id}`), jsonRequest("PATCH", { memory: `ok\n${"x".repeat(1001)}` })),
      400,
      "bad_request",
    );
    expect(long).toMatch(/entry 2 is 1001 characters/);
    const many = Array.from({ length: 1001 }, (_, i) => `Fact ${i}`).join("\n");
    expect(
      await expectApiError(
        await fetch(api(`/workspaces/${ws.id}`), jsonRequest("PATCH", { memory: many })),
        400,
        "bad_request",
      ),
    ).toMatch(/1001 entries, over the limit of 1000/);
    expect((await getJson<Entry[]>(url)).body).toEqual(before);
    expect((await getJson<Entry[]>(url, jsonRequest("PATCH", { memory: "" }))).status).toBe(405);
    expect(
      (await getJson<{ memory: string }>(api(`/workspaces/${ws.id}`), jsonRequest("PATCH", { memory: "" }))).body
        .memory,
    ).toBe("");
    expect((await getJson<Entry[]>(url)).body).toEqual([]);
  });

  it("stores, lists, reads, replaces and deletes knowledge files", async () => {
    const ws = await newWorkspace("Knowledge");
    const url = (path: string) => api(`/workspaces/${ws.id}/knowledge/${path}`);
    const created = await getJson<FileInfo>(url("KNOWLEDGE.md"), text("# Index\nSee notes/api.md ✓"));
    expect(created).toMatchObject({
      status: 201,
      body: { path: "KNOWLEDGE.md", bytes: Buffer.byteLength("# Index\nSee notes/api.md ✓") },
    });
    expect(created.body.tokens).toBeGreaterThan(3);
    expect((await fetch(url("notes/api.md"), text("GET /v1/things", "text/plain; charset=utf-8"))).status).toBe(201);
    const replaced = await getJson<FileInfo>(url("notes/api.md"), text("GET /v2/things"));
    expect(replaced).toMatchObject({ status: 200, body: { path: "notes/api.md", bytes: 14 } });
    const read = await fetch(url("notes/api.md"));
    expect(read.status).toBe(200);
    expect(await read.text()).toBe("GET /v2/things");
    const list = await getJson<FileInfo[]>(api(`/workspaces/${ws.id}/knowledge`));
    expect(list.body.map((f) => [f.path, f.bytes])).toEqual([
      ["KNOWLEDGE.md", created.body.bytes],
      ["notes/api.md", 14],
    ]);
    expect((await fetch(url("notes/api.md"), { method: "DELETE" })).status).toBe(204);
    await expectApiError(await fetch(url("notes/api.md")), 404, "not_found");
    await expectApiError(await fetch(url("notes/api.md"), { method: "DELETE" }), 404, "not_found");
  });

  it("refuses bad knowledge uploads with the problem named, storing nothing", async () => {
    const ws = await newWorkspace("Uploads");
    const base = api(`/workspaces/${ws.id}/knowledge`);
    const cases: Array<[string, RequestInit, number, string, RegExp]> = [
      // fetch resolves "../" and "%2E%2E/" itself (edges.test.ts sends those raw: the proxy refuses them); an encoded
      // slash keeps them in one segment, which the route decodes.
      ["..%2Fsecret.md", text("x"), 400, "bad_request", /\.\./],
      ["notes%2F..%2F..%2Fsecret.md", text("x"), 400, "bad_request", /\.\./],
      ["a%5Cb.md", text("x"), 400, "bad_request", /backslash/],
      ["a%00b.md", text("x"), 400, "bad_request", /NUL/],
      ["%2Fetc%2Fpasswd", text("x"), 400, "bad_request", /relative/],
      ["big.md", text("x".repeat(1024 * 1024 + 1)), 413, "payload_too_large", /1,048,576 bytes/],
      [
        "bin.md",
        { method: "PUT", headers: { "content-type": "text/plain" }, body: new Uint8Array([0xff, 0xfe, 0x00, 0x01]) },
        400,
        "bad_request",
        /not UTF-8/,
      ],
      ["nul.md", text("a\u0000b"), 400, "bad_request", /binary/],
      [
        "data.json",
        { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: "{}" },
        415,
        "unsupported_media_type",
        /text\/plain or text\/markdown/,
      ],
      ["latin.md", text("x", "text/plain; charset=latin1"), 415, "unsupported_media_type", /UTF-8/],
    ];
    for (const [path, init, status, code, message] of cases) {
      expect(await expectApiError(await fetch(`${base}/${path}`, init), status, code), path).toMatch(message);
    }
    for (const raw of ["../secret.md", "%2e%2e/secret.md", "notes/%2E%2E/%2E%2E/secret.md"]) {
      // The server resolves a dot segment before routing: the request reaches no knowledge route (404), or the
      // proxy's refusal of a dot segment (400); either way nothing is stored.
      expect([400, 404], raw).toContain(await rawPut(server.url, `/api/workspaces/${ws.id}/knowledge/${raw}`));
    }
    await expectApiError(await fetch(api("/workspaces/nope/knowledge/a.md"), text("x")), 404, "not_found");
    expect((await getJson<FileInfo[]>(base)).body).toEqual([]);
  });

  it("keeps skills per workspace with kebab-case names, refusing duplicates and bad fields", async () => {
    const ws = await newWorkspace("Skills");
    const url = api(`/workspaces/${ws.id}/skills`);
    const skill = {
      name: "weekly-report",
      description: "Writes the weekly report",
      instructions: "# Steps\n1. Gather.",
    };
    expect(await getJson<Skill>(url, jsonRequest("POST", skill))).toMatchObject({ status: 201, body: skill });
    expect(await expectApiError(await fetch(url, jsonRequest("POST", skill)), 409, "conflict")).toMatch(
      /already has a skill named weekly-report/,
    );
    expect(
      await expectApiError(
        await fetch(url, jsonRequest("POST", { ...skill, name: "Weekly Report" })),
        400,
        "bad_request",
      ),
    ).toMatch(/kebab-case/);
    expect(
      await expectApiError(
        await fetch(url, jsonRequest("POST", { ...skill, name: "two", description: "a\nb" })),
        400,
        "bad_request",
      ),
    ).toMatch(/one line/);
    const patched = await getJson<Skill>(
      `${url}/weekly-report`,
      jsonRequest("PATCH", { description: "Weekly report, short" }),
    );
    expect(patched).toMatchObject({
      status: 200,
      body: { name: "weekly-report", description: "Weekly report, short", instructions: skill.instructions },
    });
    expect((await getJson<Skill>(`${url}/weekly-report`)).body.description).toBe("Weekly report, short");
    // The same name in default is another skill.
    expect((await fetch(api("/workspaces/default/skills"), jsonRequest("POST", skill))).status).toBe(201);
    expect((await getJson<Skill[]>(url)).body.map((s) => s.name)).toEqual(["weekly-report"]);
    expect((await fetch(`${url}/weekly-report`, { method: "DELETE" })).status).toBe(204);
    await expectApiError(await fetch(`${url}/weekly-report`), 404, "not_found");
    await expectApiError(await fetch(`${url}/Bad_Name`), 400, "bad_request");
    expect((await fetch(api("/workspaces/default/skills/weekly-report"), { method: "DELETE" })).status).toBe(204);
  });

  it("deleting a workspace deletes its memory, knowledge and skills with it", async () => {
    const ws = await newWorkspace("Doomed");
    expect((await fetch(api(`/workspaces/${ws.id}/memory`), jsonRequest("POST", { text: "a fact" }))).status).toBe(201);
    expect(
      (await fetch(api(`/workspaces/${ws.id}/knowledge/KNOWLEDGE.md`), text("zanzibar line one\nzanzibar line two")))
        .status,
    ).toBe(201);
    expect((await fetch(api(`/workspaces/${ws.id}/knowledge/notes/a.md`), text("zanzibar notes"))).status).toBe(201);
    expect(
      (
        await fetch(
          api(`/workspaces/${ws.id}/skills`),
          jsonRequest("POST", { name: "s", description: "d", instructions: "i" }),
        )
      ).status,
    ).toBe(201);
    // The rows, read from the database itself: what the deletion must remove, and what it must leave alone.
    const tables = [
      ["Workspace", "id"],
      ["MemoryEntry", "workspaceId"],
      ["KnowledgeFile", "workspaceId"],
      ["KnowledgeChunk", "workspaceId"],
      ["Skill", "workspaceId"],
    ] as const;
    const rows = async (id: string) => {
      const counts: Record<string, number> = {};
      for (const [table, column] of tables) counts[table] = await countRows(server.databaseUrl, table, column, id);
      return counts;
    };
    // SQLite's full-text index of knowledge chunks (kept by triggers): its entries for the doomed files' word.
    const indexed = () => {
      const db = new Database(server.databaseUrl.replace(/^file:/, ""), { readonly: true });
      try {
        return (
          db
            .prepare(`SELECT count(*) AS n FROM "KnowledgeChunkFts" WHERE "KnowledgeChunkFts" MATCH 'zanzibar'`)
            .get() as { n: number }
        ).n;
      } finally {
        db.close();
      }
    };
    const sqlite = server.databaseUrl.startsWith("file:");
    expect(await rows(ws.id)).toEqual({ Workspace: 1, MemoryEntry: 1, KnowledgeFile: 2, KnowledgeChunk: 2, Skill: 1 });
    if (sqlite) expect(indexed()).toBe(2);
    const defaultBefore = await rows("default");

    expect((await fetch(api(`/workspaces/${ws.id}`), { method: "DELETE" })).status).toBe(204);
    expect(await rows(ws.id)).toEqual({ Workspace: 0, MemoryEntry: 0, KnowledgeFile: 0, KnowledgeChunk: 0, Skill: 0 });
    if (sqlite) expect(indexed()).toBe(0);
    expect(await rows("default")).toEqual(defaultBefore);
    for (const path of ["memory", "knowledge", "skills"])
      await expectApiError(await fetch(api(`/workspaces/${ws.id}/${path}`)), 404, "not_found");
    const again = await newWorkspace("Doomed");
    expect((await getJson(api(`/workspaces/${again.id}/memory`))).body).toEqual([]);
  });

  it("refuses an MCP server or state source URL at a loopback, private or link-local address in any spelling: a 400 naming url, nothing stored or probed", async () => {
    // A real server on loopback, the target a request forger wants read: it must see no request at all.
    let reached = 0;
    const target = http.createServer((_request, response) => {
      reached++;
      response.writeHead(500).end("internal");
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    const port = (target.address() as AddressInfo).port;
    try {
      const ws = await newWorkspace("Outbound");
      const servers = api(`/workspaces/${ws.id}/mcp-servers`);
      const sources = api(`/workspaces/${ws.id}/state-sources`);
      const refused: [string, RegExp][] = [
        [`http://127.0.0.1:${port}/mcp`, /127\.0\.0\.1 is a loopback address/],
        [`http://localhost:${port}/mcp`, /localhost names this machine/],
        [`http://LOCALHOST.:${port}/mcp`, /localhost\. names this machine/],
        [`http://[::1]:${port}/mcp`, /::1 is a loopback address/],
        [`http://[::ffff:127.0.0.1]:${port}/mcp`, /::ffff:7f00:1 is a loopback address/],
        [`http://2130706433:${port}/mcp`, /127\.0\.0\.1 is a loopback/],
        [`http://0x7f.1:${port}/mcp`, /127\.0\.0\.1 is a loopback/],
        [`http://0.0.0.0:${port}/mcp`, /0\.0\.0\.0 is an unspecified/],
        [`http://[::]:${port}/mcp`, /:: is an unspecified/],
        ["http://169.254.169.254/latest/meta-data", /169\.254\.169\.254 is a link-local address/],
        ["http://10.1.2.3/mcp", /10\.1\.2\.3 is a private address/],
        ["https://192.168.0.10/mcp", /is a private address/],
        ["http://100.64.0.1/mcp", /is a carrier-grade NAT address/],
        ["http://[fd00::1]/mcp", /is a unique local \(private\) address/],
        ["http://[fe80::1]/mcp", /is a link-local address/],
      ];
      for (const [url, reason] of refused) {
        const message = await expectApiError(
          await fetch(servers, jsonRequest("POST", { name: "forged", url })),
          400,
          "bad_request",
        );
        expect(message, url).toMatch(/^Invalid url: /);
        expect(message, url).toMatch(reason);
        expect(message, url).toMatch(/unless the operator sets HINTLINE_MCP_ALLOW_PRIVATE=1\.$/);
        // A state source's URL follows the same rules (issue 48).
        const source = await expectApiError(
          await fetch(sources, jsonRequest("POST", { name: "forged", kind: "http", url })),
          400,
          "bad_request",
        );
        expect(source, url).toMatch(/^Invalid url: /);
        expect(source, url).toMatch(reason);
      }
      // PATCH too: a stored server cannot be moved onto such an address (added disabled, so nothing reaches out for it).
      expect(
        (await fetch(servers, jsonRequest("POST", { name: "public", url: "http://93.184.216.34/mcp", enabled: false })))
          .status,
      ).toBe(201);
      await expectApiError(
        await fetch(`${servers}/public`, jsonRequest("PATCH", { url: `http://127.0.0.1:${port}/mcp`, enabled: true })),
        400,
        "bad_request",
      );
      expect(
        (await getJson<{ url: string; enabled: boolean }[]>(servers)).body.find((s) => s.url.includes("93.184")),
      ).toMatchObject({ url: "http://93.184.216.34/mcp", enabled: false });
      expect(await countRows(server.databaseUrl, "McpServer", "workspaceId", ws.id)).toBe(1);
      const publicSource = { name: "public", kind: "http", url: "http://93.184.216.34/state", enabled: false };
      expect((await fetch(sources, jsonRequest("POST", publicSource))).status).toBe(201);
      await expectApiError(
        await fetch(
          `${sources}/public`,
          jsonRequest("PATCH", { url: `http://127.0.0.1:${port}/state`, enabled: true }),
        ),
        400,
        "bad_request",
      );
      expect((await getJson<{ url: string; enabled: boolean }[]>(sources)).body).toMatchObject([
        { url: publicSource.url, enabled: false },
      ]);
      expect(await countRows(server.databaseUrl, "StateSource", "workspaceId", ws.id)).toBe(1);
      // Nothing was sent to the target, not even a probe.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(reached).toBe(0);
    } finally {
      await new Promise((resolve) => target.close(resolve));
    }
  });
});
