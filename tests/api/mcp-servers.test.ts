// The MCP server routes of a workspace against a real `next start` on SQLite and PostgreSQL, with the reference
// servers: server-everything over Streamable HTTP (a workspace's server) and server-filesystem and server-everything
// over stdio (the operator's HINTLINE_MCP_CONFIG). Header values are write-only; bad input is a 4xx that changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, freePort, startAppServer } from "../support/app-server.ts";
import { getJson } from "../support/chat-client.ts";
import { HOSTILE_SECRET, startHostileServer } from "../support/mcp-hostile-server.ts";
import { type McpHttpServer, operatorConfig, startEverythingHttp, stdioEntries } from "../support/mcp-reference.ts";
import { countRows, databaseKinds, expectApiError, jsonRequest } from "./helpers.ts";

type Tool = {
  name: string;
  modelName: string | null;
  description: string;
  annotations: Record<string, unknown>;
  tokens: number;
};
type Server = {
  name: string;
  source: string;
  transport: string;
  url?: string;
  headers: Record<string, string>;
  approval: string;
  enabled: boolean;
  timeoutSeconds: number;
  status?: string;
  error?: string;
  tools?: Tool[];
};

const kinds = databaseKinds("mcpservers");
const SECRET = "Bearer s3cr3t-token-value-4242";

describe.each(kinds)("$name: MCP servers", ({ databaseUrl }) => {
  let server: AppServer;
  let everything: McpHttpServer;
  let workspaceId = "";
  const api = (path: string) => `${server.url}/api${path}`;
  const servers = (rest = "") => api(`/workspaces/${workspaceId}/mcp-servers${rest}`);

  beforeAll(async () => {
    everything = await startEverythingHttp();
    const config = operatorConfig({});
    const { file } = operatorConfig(stdioEntries(config.dir));
    server = await startAppServer({ databaseUrl: await databaseUrl(), env: { HINTLINE_MCP_CONFIG: file } });
    workspaceId = (await getJson<{ id: string }>(api("/workspaces"), jsonRequest("POST", { name: "MCP" }))).body.id;
  });
  afterAll(async () => {
    await server?.stop();
    await everything?.stop();
  });

  it("adds a server, shows its header values masked and never returns them, and lists the operator's beside it", async () => {
    const created = await fetch(
      servers(),
      jsonRequest("POST", { name: "everything-http", url: everything.url, headers: { Authorization: SECRET } }),
    );
    const raw = await created.text();
    expect(created.status).toBe(201);
    expect(raw).not.toContain("s3cr3t");
    expect(JSON.parse(raw)).toMatchObject({
      name: "everything-http",
      source: "workspace",
      transport: "http",
      url: everything.url,
      approval: "read-only-auto",
      enabled: true,
      timeoutSeconds: 60,
      headers: { Authorization: "••••••••" },
    });

    const list = await fetch(servers());
    const listText = await list.text();
    expect(listText).not.toContain("s3cr3t");
    const names = (JSON.parse(listText) as Server[]).map((s) => `${s.name}:${s.source}:${s.transport}`);
    expect(names).toEqual(["everything-http:workspace:http", "files:operator:stdio", "everything:operator:stdio"]);
    // The operator's program and arguments are not shown.
    expect(listText).not.toContain("server-filesystem");
  });

  it("GET one connects and lists the tools with annotations and token cost (Streamable HTTP)", async () => {
    const response = await fetch(servers("/everything-http"));
    const raw = await response.text();
    expect(response.status).toBe(200);
    expect(raw).not.toContain("s3cr3t");
    const body = JSON.parse(raw) as Server;
    expect(body.status).toBe("connected");
    const echo = body.tools!.find((t) => t.name === "echo");
    expect(echo).toMatchObject({
      modelName: "mcp__everything-http__echo",
      description: "Echoes back the input string",
      annotations: { readOnlyHint: true },
    });
    expect(echo!.tokens).toBeGreaterThan(10);
    expect(body.tools!.find((t) => t.name === "toggle-simulated-logging")?.annotations.readOnlyHint).toBe(false);
  });

  it("GET one of an operator's stdio server runs it and lists its tools", async () => {
    const { status, body } = await getJson<Server>(servers("/files"));
    expect(status).toBe(200);
    expect(body).toMatchObject({ source: "operator", transport: "stdio", status: "connected" });
    expect(body.tools!.find((t) => t.name === "write_file")).toMatchObject({
      modelName: "mcp__files__write_file",
      annotations: { readOnlyHint: false, destructiveHint: true },
    });
    expect(body.tools!.find((t) => t.name === "read_text_file")?.annotations.readOnlyHint).toBe(true);
  });

  it("an unreachable URL is stored and GET one says why it fails", async () => {
    const port = await freePort();
    expect(
      (await fetch(servers(), jsonRequest("POST", { name: "nowhere", url: `http://127.0.0.1:${port}/mcp` }))).status,
    ).toBe(201);
    const { body } = await getJson<Server>(servers("/nowhere"));
    expect(body.status).toBe("failed");
    expect(body.error).toMatch(/ECONNREFUSED|connect|fetch failed/i);
    expect(body.tools).toEqual([]);
    expect((await fetch(servers("/nowhere"), { method: "DELETE" })).status).toBe(204);
    await expectApiError(await fetch(servers("/nowhere")), 404, "not_found");
  });

  it("GET one never shows a server's HTTP error body or reason phrase, and a listing over 4 MiB fails with that limit", async () => {
    const hostile = await startHostileServer();
    try {
      hostile.failEverything = true;
      expect((await fetch(servers(), jsonRequest("POST", { name: "hostile", url: hostile.url }))).status).toBe(201);
      const failed = await fetch(servers("/hostile"));
      const raw = await failed.text();
      expect(raw).not.toContain(HOSTILE_SECRET);
      expect(raw).not.toContain("10.0.0.7");
      expect(JSON.parse(raw)).toMatchObject({
        status: "failed",
        tools: [],
        error: expect.stringMatching(/HTTP 500.*\(the server's answer is not shown\)/),
      });
      hostile.failEverything = false;
      hostile.hugeListing = true;
      const { body } = await getJson<Server>(servers("/hostile"));
      expect(body).toMatchObject({
        status: "failed",
        tools: [],
        error: expect.stringMatching(/tool listing is longer than 4 MiB over its pages/),
      });
      expect((await fetch(servers("/hostile"), { method: "DELETE" })).status).toBe(204);
    } finally {
      await hostile.close();
    }
  });

  it("PATCH edits, disables (status disabled) and replaces the headers, still masked", async () => {
    const patched = await fetch(
      servers("/everything-http"),
      jsonRequest("PATCH", {
        approval: "ask",
        timeoutSeconds: 5,
        enabled: false,
        headers: { "X-Api-Key": "another-s3cr3t" },
      }),
    );
    const raw = await patched.text();
    expect(patched.status).toBe(200);
    expect(raw).not.toContain("s3cr3t");
    expect(JSON.parse(raw)).toMatchObject({
      approval: "ask",
      timeoutSeconds: 5,
      enabled: false,
      headers: { "X-Api-Key": "••••••••" },
    });
    const { body } = await getJson<Server>(servers("/everything-http"));
    expect(body).toMatchObject({ status: "disabled", tools: [] });
    const back = await getJson<Server>(
      servers("/everything-http"),
      jsonRequest("PATCH", { enabled: true, approval: "read-only-auto", timeoutSeconds: null }),
    );
    expect(back.body).toMatchObject({ enabled: true, approval: "read-only-auto", timeoutSeconds: 60 });
  });

  it("bad input on every route is a 4xx naming the problem and changes nothing", async () => {
    const before = await (await fetch(servers())).text();
    const rowsBefore = await countRows(server.databaseUrl, "McpServer", "workspaceId", workspaceId);
    const post = (body: unknown) => fetch(servers(), jsonRequest("POST", body));
    const cases: [Promise<Response>, number, RegExp][] = [
      [post({ name: "files2", url: "file:///etc/passwd" }), 400, /url.*http or https/i],
      [post({ name: "js", url: "javascript:alert(1)" }), 400, /url/],
      [post({ name: "Bad Name", url: everything.url }), 400, /name.*kebab-case/],
      [post({ name: "x".repeat(33), url: everything.url }), 400, /name.*at most 32/],
      [post({ url: everything.url }), 400, /name/],
      [post({ name: "everything-http", url: everything.url }), 409, /already has an MCP server named everything-http/],
      [post({ name: "files", url: everything.url }), 409, /operator.*files/],
      [
        post({ name: "long", url: everything.url, headers: { Authorization: "x".repeat(4097) } }),
        400,
        /headers\.Authorization.*4,097 characters/,
      ],
      [post({ name: "crlf", url: everything.url, headers: { "X-A": "a\r\nHost: evil" } }), 400, /line break/],
      [
        post({ name: "host", url: everything.url, headers: { Host: "evil" } }),
        400,
        /headers\.Host.*set by the connection/,
      ],
      [post({ name: "creds", url: "http://user:pw@127.0.0.1/mcp" }), 400, /user name or password/],
      [post({ name: "prog", url: everything.url, command: "/bin/sh" }), 400, /unknown field\(s\) command/],
      [post({ name: "appr", url: everything.url, approval: "maybe" }), 400, /approval/],
      [post({ name: "tmo", url: everything.url, timeoutSeconds: 0 }), 400, /timeoutSeconds.*at least 1/],
      [fetch(servers("/everything-http"), jsonRequest("PATCH", { url: "ftp://x/mcp" })), 400, /url/],
      [fetch(servers("/everything-http"), jsonRequest("PATCH", {})), 400, /send url/],
      [fetch(servers("/files"), jsonRequest("PATCH", { enabled: false })), 409, /operator's HINTLINE_MCP_CONFIG/],
      [fetch(servers("/files"), { method: "DELETE" }), 409, /operator/],
      [fetch(servers("/missing"), { method: "DELETE" }), 404, /does not exist/],
      [fetch(servers("/Not_Kebab")), 400, /server name/],
      [fetch(api("/workspaces/nope/mcp-servers")), 404, /Workspace nope/],
      [fetch(servers(), { method: "PUT" }), 405, /not allowed/],
    ];
    for (const [request, status, message] of cases) {
      const response = await request;
      expect(await expectApiError(response, status, /.+/)).toMatch(message);
    }
    expect(await (await fetch(servers())).text()).toBe(before);
    expect(await countRows(server.databaseUrl, "McpServer", "workspaceId", workspaceId)).toBe(rowsBefore);
  });
});
