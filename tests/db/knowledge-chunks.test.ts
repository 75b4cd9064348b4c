// Knowledge search over chunked files (runs on SQLite and on PostgreSQL): lines are found with their own numbers
// whatever the file's shape, a file of empty lines is stored as no search row, and the migration that replaced the
// row-per-line index keeps existing files searchable.
import { OPERATOR } from "../../lib/auth/viewer.ts";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createPostgresDatabase } from "../support/db-global-setup.ts";

process.env.DATABASE_URL = inject("databaseUrl");
const kind = inject("databaseKind");

const { disconnectDb, getDb } = await import("@/lib/db/client");
const { getKnowledgeFile, searchKnowledgeLines } = await import("@/lib/db/knowledge");
const { saveKnowledge } = await import("@/lib/chat/knowledge");
const { addWorkspace } = await import("@/lib/chat/workspaces");

afterAll(async () => {
  await disconnectDb();
});

const lines = (path: string, hits: Array<{ path: string; line: number }>) =>
  hits.filter((h) => h.path === path).map((h) => h.line);

describe(`knowledge search over chunks on ${kind}`, () => {
  it("finds lines by their own numbers in files of any shape, and stores empty lines as nothing", {
    timeout: 60_000,
  }, async () => {
    const ws = await addWorkspace(OPERATOR, { name: `Chunks ${Date.now()}` });
    const csv = Array.from({ length: 39_000 }, (_, i) => `${i + 1},customer ${i % 977},Berlin`);
    csv[31_336] = "31337,zebra holdings,Quito";
    await saveKnowledge(ws.id, "customers.csv", csv.join("\r\n"));
    await saveKnowledge(ws.id, "blank.txt", `${"\n".repeat(1024 * 1024 - 20)}zebra at the end`);
    await saveKnowledge(ws.id, "long.txt", `first line\n${"filler ".repeat(100_000)}zebra quito\nlast`);
    await saveKnowledge(ws.id, "split.md", "alpha here\nbeta there");
    const db = await getDb();
    expect(await db.knowledgeChunk.count({ where: { workspaceId: ws.id, path: "blank.txt" } })).toBe(1);
    expect(await db.knowledgeChunk.count({ where: { workspaceId: ws.id, path: "customers.csv" } })).toBeLessThan(300);

    const zebra = await searchKnowledgeLines({ workspaceId: ws.id, words: ["zebra"], limit: 50 });
    expect(lines("customers.csv", zebra)).toEqual([31_337]);
    expect(zebra.find((h) => h.path === "customers.csv")?.text).toBe("31337,zebra holdings,Quito");
    expect(lines("blank.txt", zebra)).toEqual([1024 * 1024 - 19]);
    expect(lines("long.txt", zebra)).toEqual([2]);
    const both = await searchKnowledgeLines({ workspaceId: ws.id, words: ["zebra", "quito"], limit: 50 });
    expect(both.map((h) => `${h.path}:${h.line}`).sort()).toEqual(["customers.csv:31337", "long.txt:2"]);
    // Words on two lines of one chunk are not one line holding both.
    expect(await searchKnowledgeLines({ workspaceId: ws.id, words: ["alpha", "beta"], limit: 50 })).toEqual([]);
    const any = await searchKnowledgeLines({ workspaceId: ws.id, words: ["alpha", "beta"], anyWord: true, limit: 50 });
    expect(any.map((h) => `${h.path}:${h.line}`)).toEqual(["split.md:1", "split.md:2"]);
    // A common word: the limit holds.
    expect(await searchKnowledgeLines({ workspaceId: ws.id, words: ["berlin"], limit: 50 })).toHaveLength(50);

    // Two uploads of one path at once: the index holds the later one's chunks only (SQLite writes them in batches).
    const a = Array.from({ length: 3_000 }, (_, i) => `alpaca row ${i}`).join("\n");
    const b = Array.from({ length: 2_000 }, (_, i) => `bison row ${i}`).join("\n");
    await Promise.all([saveKnowledge(ws.id, "race.md", a), saveKnowledge(ws.id, "race.md", b)]);
    const stored = (await getKnowledgeFile({ workspaceId: ws.id, path: "race.md" }))!.content;
    const [kept, gone] = stored === a ? ["alpaca", "bison"] : ["bison", "alpaca"];
    expect(lines("race.md", await searchKnowledgeLines({ workspaceId: ws.id, words: [gone], limit: 50 }))).toEqual([]);
    expect(
      lines("race.md", await searchKnowledgeLines({ workspaceId: ws.id, words: [kept, "1999"], limit: 50 })),
    ).toEqual([2_000]);

    // Saving again replaces the chunks.
    await saveKnowledge(ws.id, "customers.csv", "no animals here");
    expect(
      lines("customers.csv", await searchKnowledgeLines({ workspaceId: ws.id, words: ["zebra"], limit: 50 })),
    ).toEqual([]);
  });
});

describe("the knowledge_chunks migration", () => {
  const CHUNKS = fs
    .readdirSync(path.join("prisma/migrations", kind === "postgres" ? "postgresql" : "sqlite"))
    .find((d) => d.endsWith("_knowledge_chunks"))!;
  const dir = path.join("prisma/migrations", kind === "postgres" ? "postgresql" : "sqlite");
  const migrations = fs
    .readdirSync(dir)
    .filter((d) => /^\d/.test(d))
    .sort();
  const sql = (name: string) => fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
  const before = migrations.slice(0, migrations.indexOf(CHUNKS));

  it("turns the indexed lines of existing files into chunks with the same line numbers", {
    timeout: 30_000,
  }, async () => {
    const setup = [
      `INSERT INTO "KnowledgeFile" ("workspaceId", "path", "content", "bytes", "tokens", "updatedAt") VALUES ('default', 'a.md', 'x', 1, 1, CURRENT_TIMESTAMP)`,
      `INSERT INTO "KnowledgeFile" ("workspaceId", "path", "content", "bytes", "tokens", "updatedAt") VALUES ('default', 'unindexed.md', 'old zebra', 9, 2, CURRENT_TIMESTAMP)`,
      ...Array.from(
        { length: 130 },
        (_, i) =>
          `INSERT INTO "KnowledgeLine" ("workspaceId", "path", "line", "text") VALUES ('default', 'a.md', ${i + 1}, '${i === 99 ? "the zebra line" : `line ${i + 1}`}')`,
      ),
    ];
    const check = `SELECT "path", "seq", "firstLine" FROM "KnowledgeChunk" ORDER BY "path", "seq"`;
    let rows: unknown[];
    if (kind === "postgres") {
      const { default: pg } = await import("pg");
      const url = await createPostgresDatabase(process.env.TEST_POSTGRES_URL!, `hintline_chunkmig_${process.pid}`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (const m of before) await client.query(sql(m));
        for (const s of setup) await client.query(s);
        await client.query(sql(CHUNKS));
        rows = (await client.query(check)).rows;
      } finally {
        await client.end();
      }
    } else {
      const db = new Database(path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hintline-chunkmig-")), "m.db"));
      for (const m of before) db.exec(sql(m));
      for (const s of setup) db.exec(s);
      db.exec(sql(CHUNKS));
      rows = db.prepare(check).all();
      expect(
        db.prepare(`SELECT count(*) AS n FROM "KnowledgeChunkFts" WHERE "KnowledgeChunkFts" MATCH 'zebra'`).get(),
      ).toEqual({ n: 2 });
      db.close();
    }
    expect(rows).toEqual([
      { path: "a.md", seq: 0, firstLine: 1 },
      { path: "a.md", seq: 1, firstLine: 65 },
      { path: "a.md", seq: 2, firstLine: 129 },
      { path: "unindexed.md", seq: 0, firstLine: 1 },
    ]);
  });
});
