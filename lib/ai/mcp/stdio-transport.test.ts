// The operator's programs over stdio through the bounded transport: the protocol's reference server works as before,
// a program that prints one endless line fails the call at once and keeps none of it, and the program's environment
// is its own plus the few variables every program needs.
import { afterAll, describe, expect, it } from "vitest";
import { EVERYTHING_BIN } from "../../../tests/support/mcp-reference.ts";
import { connectMcp, listMcpTools } from "./connect.ts";
import type { McpServerConfig } from "./server-config.ts";
import { programEnvironment } from "./stdio-transport.ts";

const MiB = 1024 * 1024;

/** A minimal MCP program: `flood` prints one 64 MiB line before its answer, `env` answers a request never sent, then with its environment. */
const HOSTILE_PROGRAM = `
const out = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
const flood = (id) => new Promise((done) => {
  const chunk = "x".repeat(65536);
  let left = 1024;
  const more = () => {
    while (left > 0) { left--; if (!process.stdout.write(chunk)) return process.stdout.once("drain", more); }
    out({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "late" }] } });
    done();
  };
  more();
});
const handle = async (m) => {
  if (m.method === "initialize") out({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "hostile", version: "1" } } });
  else if (m.method === "tools/list") out({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "flood", inputSchema: { type: "object" } }, { name: "env", inputSchema: { type: "object" } }] } });
  else if (m.method === "tools/call" && m.params.name === "env") out({ jsonrpc: "2.0", id: 424242, result: {} }), out({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: JSON.stringify(process.env) }] } });
  else if (m.method === "tools/call") await flood(m.id);
  else if ("id" in m) out({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "no such method" } });
};
// One message at a time: an answer never lands inside the flood's line.
let queue = Promise.resolve();
let buffered = "";
process.stdin.on("data", (d) => {
  buffered += d;
  for (let i = buffered.indexOf("\\n"); i !== -1; i = buffered.indexOf("\\n")) {
    const m = JSON.parse(buffered.slice(0, i));
    buffered = buffered.slice(i + 1);
    queue = queue.then(() => handle(m));
  }
});`;

const stdio = (name: string, args: string[], env: Record<string, string> = {}): McpServerConfig => ({
  name,
  source: "operator",
  transport: { type: "stdio", command: process.execPath, args, env },
  approval: "always",
  enabled: true,
  timeoutSeconds: 20,
  alwaysAllow: [],
});

const secretBefore = process.env.HINTLINE_TEST_SECRET;
afterAll(() => {
  if (secretBefore === undefined) delete process.env.HINTLINE_TEST_SECRET;
  else process.env.HINTLINE_TEST_SECRET = secretBefore;
});

describe("the bounded stdio transport", () => {
  it("runs the reference server: lists its tools and answers a call", async () => {
    const client = await connectMcp(stdio("everything", [EVERYTHING_BIN, "stdio"]));
    try {
      expect((await listMcpTools(client)).map((t) => t.name)).toContain("echo");
      const result = await client.callTool({ name: "echo", arguments: { message: "héllo" } });
      expect(JSON.stringify(result.content)).toContain("Echo: héllo");
    } finally {
      await client.close();
    }
  });

  it("a 64 MiB line fails the waiting call at once with the limit's reason; the program's later lines are read again", async () => {
    process.env.HINTLINE_TEST_SECRET = "provider-key";
    const client = await connectMcp(stdio("hostile", ["-e", HOSTILE_PROGRAM], { OWN: "mine" }));
    try {
      const started = performance.now();
      const error = await client.callTool({ name: "flood", arguments: {}, options: { timeout: 20_000 } }).then(
        () => new Error("the call succeeded"),
        (e: Error) => e,
      );
      expect(error.message).toBe(
        "the MCP server sent a line longer than 4 MiB, the most Hintline reads as one message; the rest was not read",
      );
      expect(performance.now() - started).toBeLessThan(10_000);
      // The rest of the line is skipped, not kept; the next answer is read as usual.
      const env = JSON.parse(
        ((await client.callTool({ name: "env", arguments: {} })).content as { text: string }[])[0]!.text,
      ) as Record<string, string>;
      expect(env.OWN).toBe("mine");
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.HINTLINE_TEST_SECRET).toBeUndefined();
      expect(process.memoryUsage().rss).toBeLessThan(1024 * MiB);
    } finally {
      await client.close();
    }
  });

  it("gives a program its own environment and only PATH, HOME, USER, SHELL, TERM and LOGNAME besides (no shell function)", () => {
    const parent = {
      PATH: "/bin",
      HOME: "/home/a",
      OPENAI_API_KEY: "sk-secret",
      TERM: "() { :; }; echo pwned",
      USER: "a",
    };
    expect(programEnvironment({ HOME: "/own", EXTRA: "1" }, parent)).toEqual({
      HOME: "/own",
      EXTRA: "1",
      PATH: "/bin",
      USER: "a",
    });
  });
});
