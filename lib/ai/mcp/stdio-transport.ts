// An operator's MCP program over stdio, with what it prints bounded. The AI SDK's StdioMCPTransport keeps everything
// a program prints until a newline comes (its read buffer has no limit and no public seam for one), so a program
// that prints one endless line takes the whole process's memory. This transport speaks the same protocol (one
// JSON-RPC message a line) through the SDK's public MCPTransport interface and starts the program as the SDK does
// (shell off, stderr ignored by connect.ts, the program's own `env` plus only PATH, HOME, USER, SHELL, TERM and
// LOGNAME of this server's). A line longer than MCP_MESSAGE_MAX_BYTES is skipped to its end and every request still
// waiting is answered with a JSON-RPC error naming the limit, as over HTTP (mcp-fetch.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { type JSONRPCMessage, MCPClientError, type MCPTransport, validateJSONRPCMessage } from "@ai-sdk/mcp";
import { MCP_LIMIT_ERROR_CODE, MCP_MESSAGE_MAX_BYTES, messageTooLarge } from "./limits.ts";

export type StdioProgram = {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  stderr?: "ignore" | "inherit" | "pipe";
};

const INHERITED =
  process.platform === "win32"
    ? [
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PROCESSOR_ARCHITECTURE",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "USERNAME",
        "USERPROFILE",
      ]
    : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/** The program's environment: its own `env`, then the few variables every program needs (a shell function's value never). */
export function programEnvironment(
  own: Record<string, string> = {},
  parent: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const env = { ...own };
  for (const name of INHERITED) {
    const value = parent[name];
    if (!(name in env) && value !== undefined && !value.startsWith("()")) env[name] = value;
  }
  return env;
}

const NEWLINE = 10;

export class BoundedStdioTransport implements MCPTransport {
  readonly supportsProtocolVersionDiscovery = true;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ChildProcess;
  private readonly abort = new AbortController();
  /** The unfinished line's bytes so far, and their count; `skipping` once it grew past the limit (until its end). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;
  /** Requests sent and not yet answered: a line cut at the limit answers them with an error. */
  private readonly waiting = new Set<string | number>();

  constructor(
    private readonly program: StdioProgram,
    private readonly maxLineBytes = MCP_MESSAGE_MAX_BYTES,
  ) {}

  start(): Promise<void> {
    if (this.child) return Promise.reject(new MCPClientError({ message: "The stdio transport was already started." }));
    return new Promise((resolve, reject) => {
      const { command, args = [], env, cwd, stderr = "inherit" } = this.program;
      const child: ChildProcess = spawn(command, args, {
        env: programEnvironment(env) as NodeJS.ProcessEnv,
        cwd,
        stdio: ["pipe", "pipe", stderr],
        shell: false,
        signal: this.abort.signal,
      });
      this.child = child;
      child.on("error", (error) => {
        if (error.name === "AbortError") return this.onclose?.();
        reject(error);
        this.onerror?.(error);
      });
      child.on("spawn", () => resolve());
      child.on("close", () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => this.read(chunk));
    });
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      this.keep(chunk.subarray(start, end));
      if (this.skipping) this.skipping = false;
      else this.deliver(Buffer.concat(this.pending).toString("utf8"));
      this.pending = [];
      this.pendingBytes = 0;
      start = end + 1;
    }
    this.keep(chunk.subarray(start));
  }

  /** Keeps a piece of the current line, unless it is being skipped or grows past the limit (then it is). */
  private keep(piece: Buffer): void {
    if (this.skipping || !piece.length) return;
    this.pendingBytes += piece.length;
    if (this.pendingBytes <= this.maxLineBytes) {
      this.pending.push(piece);
      return;
    }
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = true;
    const error = messageTooLarge("a line", this.maxLineBytes);
    for (const id of [...this.waiting])
      this.deliverMessage({ jsonrpc: "2.0", id, error: { code: MCP_LIMIT_ERROR_CODE, message: error.message } });
    this.onerror?.(error);
  }

  private deliver(line: string): void {
    if (!line.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = validateJSONRPCMessage(JSON.parse(line));
    } catch (error) {
      this.onerror?.(
        new MCPClientError({ message: "The MCP program printed a line that is not a JSON-RPC message", cause: error }),
      );
      return;
    }
    this.deliverMessage(message);
  }

  private deliverMessage(message: JSONRPCMessage): void {
    if (!("method" in message) && "id" in message && message.id !== undefined) this.waiting.delete(message.id);
    try {
      this.onmessage?.(message);
    } catch (error) {
      // The client throws at an answer to no request of its own: an error of the connection, not of this process.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new MCPClientError({ message: "The stdio transport is not connected" }));
    if ("method" in message && "id" in message) this.waiting.add(message.id);
    return new Promise((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    this.abort.abort();
    this.child = undefined;
    this.pending = [];
    this.pendingBytes = 0;
    this.waiting.clear();
  }
}
