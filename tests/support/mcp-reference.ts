// The protocol's reference MCP servers, installed as dev dependencies and run from node_modules (nothing is fetched):
// server-everything (tools with annotations, progress, errors, long-running calls) over Streamable HTTP or stdio, and
// server-filesystem over a temporary directory (stdio). Used by the API tests through the OpenAI fake.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";

const root = path.resolve(import.meta.dirname, "../..");
export const EVERYTHING_BIN = path.join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const FILESYSTEM_BIN = path.join(root, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

/** A free local port (this module is shared with the browser tests, so it imports no test framework). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export type McpHttpServer = {
  url: string;
  port: number;
  stop: () => Promise<void>;
  kill: () => void;
  output: () => string;
};

/** server-everything over Streamable HTTP (or the older SSE transport, at /sse) on a free port; resolves once it listens. */
export async function startEverythingHttp(
  transport: "streamableHttp" | "sse" = "streamableHttp",
): Promise<McpHttpServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING_BIN, transport], {
    env: { PATH: process.env.PATH ?? "", PORT: String(port), NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const deadline = Date.now() + 20_000;
  while (!/(listening|running) on port/i.test(output)) {
    if (child.exitCode !== null) throw new Error(`server-everything exited:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server-everything did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `http://127.0.0.1:${port}/${transport === "sse" ? "sse" : "mcp"}`,
    port,
    output: () => output,
    kill: () => child.kill("SIGKILL"),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await gone;
      }
    },
  };
}

/** A HINTLINE_MCP_CONFIG file in a temporary directory, and the directory server-filesystem may read and write. */
export function operatorConfig(servers: Record<string, unknown>): { file: string; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-mcp-"));
  const file = path.join(dir, "mcp.json");
  fs.writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return { file, dir };
}

/** The operator's entries for the reference servers over stdio (filesystem limited to `dir`). */
export function stdioEntries(dir: string): Record<string, unknown> {
  const files = path.join(dir, "files");
  fs.mkdirSync(files, { recursive: true });
  return {
    files: { command: process.execPath, args: [FILESYSTEM_BIN, files] },
    everything: { command: process.execPath, args: [EVERYTHING_BIN, "stdio"] },
  };
}
