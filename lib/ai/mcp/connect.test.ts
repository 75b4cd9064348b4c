// The AI SDK's MCP client as connect.ts makes it, against a real hostile MCP server on loopback: what the server sends
// beyond a limit fails the call at once with the limit's reason, and reading stops; an HTTP error's body never
// reaches an error message; a workspace's server on loopback is refused unless HINTLINE_MCP_ALLOW_PRIVATE=1.
import type { MCPClient } from "@ai-sdk/mcp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HOSTILE_SECRET, type HostileServer, startHostileServer } from "../../../tests/support/mcp-hostile-server.ts";
import { connectMcp, listMcpTools, probeMcpServer } from "./connect.ts";
import { McpLimitError } from "./limits.ts";
import type { McpServerConfig } from "./server-config.ts";
import { wordsFor } from "../../operator-words.ts";

const MiB = 1024 * 1024;
let hostile: HostileServer;
const config = (source: McpServerConfig["source"] = "workspace"): McpServerConfig => ({
  name: "hostile",
  source,
  transport: { type: "http", url: hostile.url, headers: {} },
  approval: "always",
  enabled: true,
  timeoutSeconds: 20,
  alwaysAllow: [],
});
const allowed = process.env.HINTLINE_MCP_ALLOW_PRIVATE;

beforeAll(async () => {
  hostile = await startHostileServer();
});
afterAll(() => hostile?.close());
afterEach(() => {
  hostile.hugeListing = false;
  hostile.failEverything = false;
  if (allowed === undefined) delete process.env.HINTLINE_MCP_ALLOW_PRIVATE;
  else process.env.HINTLINE_MCP_ALLOW_PRIVATE = allowed;
});

/** The error a call ends with, and how long it took. */
async function failedCall(client: MCPClient, name: string): Promise<{ message: string; ms: number }> {
  const started = performance.now();
  const error = await client.callTool({ name, arguments: {}, options: { timeout: 20_000 } }).then(
    () => new Error("the call succeeded"),
    (e: Error) => e,
  );
  return { message: error.message, ms: performance.now() - started };
}

describe("a hostile MCP server", () => {
  it("a never-ending event (128 MiB offered) and a 64 MiB JSON body fail their call at once; the client stopped reading", async () => {
    process.env.HINTLINE_MCP_ALLOW_PRIVATE = "1";
    const client = await connectMcp(config());
    try {
      const flood = await failedCall(client, "flood");
      expect(flood.message).toMatch(
        /^the MCP server sent an event longer than 4 MiB, the most Hintline reads as one message/,
      );
      expect(flood.ms).toBeLessThan(10_000);
      const json = await failedCall(client, "huge-json");
      expect(json.message).toMatch(/^the MCP server sent a body longer than 4 MiB/);
      expect(json.ms).toBeLessThan(10_000);
      // What the server got out before the client hung up: its limit and what the sockets held, far below what was offered.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(hostile.written.flood).toBeLessThan(24 * MiB);
      expect(hostile.written.json).toBeLessThan(24 * MiB);
      // The connection still answers.
      expect((await listMcpTools(client)).map((t) => t.name)).toEqual(["flood", "huge-json", "leak"]);
    } finally {
      await client.close();
    }
  });

  it("a listing over 4 MiB in all (three pages of 2 MiB) is refused with McpLimitError", async () => {
    process.env.HINTLINE_MCP_ALLOW_PRIVATE = "1";
    hostile.hugeListing = true;
    const client = await connectMcp(config());
    try {
      const error = await listMcpTools(client).catch((e: Error) => e);
      expect(error).toBeInstanceOf(McpLimitError);
      expect((error as Error).message).toMatch(/tool listing is longer than 4 MiB over its pages/);
      expect(await probeMcpServer(config())).toEqual({
        ok: false,
        error: expect.stringMatching(/tool listing is longer than 4 MiB/),
      });
    } finally {
      await client.close();
    }
  });

  it("an HTTP error's body and reason phrase never reach the error a person reads", async () => {
    process.env.HINTLINE_MCP_ALLOW_PRIVATE = "1";
    const client = await connectMcp(config());
    try {
      const leak = await failedCall(client, "leak");
      expect(leak.message).toMatch(/HTTP 500/);
      expect(leak.message).not.toContain("SECRET");
    } finally {
      await client.close();
    }
    hostile.failEverything = true;
    const probe = await probeMcpServer(config());
    expect(probe.ok).toBe(false);
    const error = (probe as { error: string }).error;
    expect(error).toMatch(/HTTP 500|500 Internal Server Error/);
    expect(error).toContain("(the server's answer is not shown)");
    expect(error).not.toContain(HOSTILE_SECRET);
    expect(error).not.toContain("10.0.0.7");
  });

  it("a workspace's server on loopback is refused before anything is sent, unless the operator allows it; the operator's own is not", async () => {
    delete process.env.HINTLINE_MCP_ALLOW_PRIVATE;
    const before = hostile.written.flood;
    const probe = await probeMcpServer(config());
    expect(probe.ok).toBe(false);
    expect(wordsFor(probe.ok ? "" : probe.error, true)).toMatch(
      /^127\.0\.0\.1 is a loopback address; loopback, private and link-local addresses are refused unless the operator sets HINTLINE_MCP_ALLOW_PRIVATE=1$/,
    );
    expect(
      await probeMcpServer({
        ...config(),
        transport: { type: "http", url: hostile.url.replace("127.0.0.1", "localhost"), headers: {} },
      }),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/^localhost names this machine/) });
    expect(await probeMcpServer(config("operator"))).toMatchObject({ ok: true });
    expect(hostile.written.flood).toBe(before);
  });
});
