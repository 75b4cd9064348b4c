// Shared helpers for the HTTP API tests: error-shape checks, polling with a deadline (tests/support/poll.ts),
// incremental stream reading and snapshots of the app's SQLite file.
import http from "node:http";
import Database from "better-sqlite3";
import { expect } from "vitest";
import type { RunView } from "../../lib/agent/run-view.ts";
import type { StreamChunk } from "../support/chat-client.ts";
import { createPostgresDatabase, migrate } from "../support/db-global-setup.ts";

export { pollUntil } from "../support/poll.ts";

export type ApiPart = { type: string; text?: string; [key: string]: unknown };
export type ApiMessage = {
  id: string;
  role: string;
  parts: ApiPart[];
  metadata?: { status?: string; error?: string; createdAt?: string; [key: string]: unknown };
};
export type Settings = {
  injection: Record<string, unknown>;
  context: Record<string, unknown>;
  prompt: Record<string, unknown>;
  sampling: { temperature?: number; maxOutputTokens?: number };
};
export type ConversationView = {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  settings: Settings;
  messages: ApiMessage[];
  run: RunView | null;
};
export type ConversationSummary = { id: string; title: string; createdAt: string; updatedAt: string };

/** The text parts of a stored message, joined. */
export function messageText(message: ApiMessage | undefined): string {
  return (message?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => p.text ?? "")
    .join("");
}

export const words = (text: string): string[] => text.trim().split(/\s+/).filter(Boolean);

const STACK_TRACE = /\n\s*at\s|node_modules|\.(?:ts|js|mjs):\d+/;

export function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(STACK_TRACE);
}

/** Asserts the API's error shape `{ error: { code, message, ...extra } }` with the given status and code, and no stack trace. */
export async function expectApiError(response: Response, status: number, code: string | RegExp): Promise<string> {
  const raw = await response.text();
  expect({ status: response.status, body: raw.slice(0, 300) }).toMatchObject({ status });
  expect(response.headers.get("content-type") ?? "").toMatch(/application\/json/);
  const body = JSON.parse(raw) as { error?: { code?: unknown; message?: unknown } };
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error).toMatchObject({
    code: typeof code === "string" ? code : expect.stringMatching(code),
    message: expect.any(String),
  });
  const message = body.error?.message as string;
  expect(message.trim().length).toBeGreaterThan(0);
  expectNoStackTrace(raw);
  return message;
}

/** Reads an SSE UI message stream until a chunk matches; the rest of the stream is left unread. */
export async function readUntil(response: Response, match: (chunk: StreamChunk) => boolean): Promise<StreamChunk[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const chunks: StreamChunk[] = [];
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return chunks;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
      const chunk = JSON.parse(line.slice(6)) as StreamChunk;
      chunks.push(chunk);
      if (match(chunk)) {
        reader.releaseLock();
        return chunks;
      }
    }
  }
}

/** Chunk types in order, without data parts (hints, usage) and with runs of text deltas collapsed to one. */
export function chunkSequence(chunks: StreamChunk[]): string[] {
  const types = chunks.map((c) => c.type).filter((t) => !t.startsWith("data-"));
  return types.filter((t, i) => !(t === "text-delta" && types[i - 1] === "text-delta"));
}

export function jsonRequest(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

export function userMessage(id: string, text: string) {
  return { id, role: "user", parts: [{ type: "text", text }] };
}

export type DatabaseSnapshot = Record<string, unknown[]>;

/**
 * Every row of every table of a server's SQLite file (migration bookkeeping aside), read through a read-only
 * connection, in a stable order: compare two snapshots to prove that requests changed nothing.
 */
export function snapshotDatabase(databaseUrl: string): DatabaseSnapshot {
  const db = new Database(databaseUrl.replace(/^file:/, ""), { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations' ORDER BY name",
      )
      .all() as { name: string }[];
    const snapshot: DatabaseSnapshot = {};
    for (const { name } of tables) {
      const columns = db.prepare(`SELECT count(*) AS n FROM pragma_table_info(?)`).get(name) as { n: number };
      const orderBy = Array.from({ length: columns.n }, (_, i) => i + 1).join(", ");
      snapshot[name] = db.prepare(`SELECT * FROM "${name}" ORDER BY ${orderBy}`).all();
    }
    return snapshot;
  } finally {
    db.close();
  }
}

/** A snapshot taken once the database has stopped changing (a finished reply settles just after its stream ends). */
export async function settledSnapshot(databaseUrl: string): Promise<DatabaseSnapshot> {
  let previous = snapshotDatabase(databaseUrl);
  for (let attempt = 0; attempt < 50; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const current = snapshotDatabase(databaseUrl);
    if (JSON.stringify(current) === JSON.stringify(previous)) return current;
    previous = current;
  }
  throw new Error("the database kept changing for 5 s");
}

/**
 * How many rows of `table` have `column` = `value`, read straight from a server's database (SQLite or PostgreSQL),
 * to see what a request really left behind rather than what the API says.
 */
export async function countRows(databaseUrl: string, table: string, column: string, value: string): Promise<number> {
  const sql = `SELECT count(*) AS n FROM "${table}" WHERE "${column}" = `;
  if (databaseUrl.startsWith("file:")) {
    const db = new Database(databaseUrl.replace(/^file:/, ""), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare(`${sql}?`).get(value) as { n: number }).n;
    } finally {
      db.close();
    }
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return Number((await client.query(`${sql}$1`, [value])).rows[0].n);
  } finally {
    await client.end();
  }
}

export type DatabaseKind = { name: string; databaseUrl: () => Promise<string | undefined> };

/**
 * The databases a server test runs on: SQLite (a fresh file per server), and PostgreSQL when TEST_POSTGRES_URL is set
 * (a fresh, migrated database named `hintline_<name>_<pid>`).
 */
export function databaseKinds(name: string): DatabaseKind[] {
  const kinds: DatabaseKind[] = [{ name: "SQLite", databaseUrl: async () => undefined }];
  const postgres = process.env.TEST_POSTGRES_URL;
  if (postgres) {
    kinds.push({
      name: "PostgreSQL",
      databaseUrl: async () => {
        const url = await createPostgresDatabase(postgres, `hintline_${name}_${process.pid}`);
        migrate(url);
        return url;
      },
    });
  }
  return kinds;
}

/**
 * A GET sent from a given loopback address with a bearer token: the limit on failed credential checks counts by the
 * connection's address, so 127.0.0.2… stand for other machines than the owner's 127.0.0.1.
 */
export function bearerFrom(
  baseUrl: string,
  localAddress: string,
  token: string,
  path = "/api/model",
): Promise<{ status: number; retryAfter: number }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path, localAddress, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, retryAfter: Number(response.headers["retry-after"] ?? 0) }),
        );
      },
    );
    request.on("error", reject);
    request.end();
  });
}
