// The migration that adds workspaces, replayed over a database holding a conversation from before it: the
// conversation ends up in the "default" workspace, which the migration creates.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, inject, it } from "vitest";
import { createPostgresDatabase } from "../support/db-global-setup.ts";

const kind = inject("databaseKind");
const WORKSPACES = "20261201120624_workspaces";
const dir = path.join("prisma/migrations", kind === "postgres" ? "postgresql" : "sqlite");
const migrations = fs
  .readdirSync(dir)
  .filter((d) => /^\d/.test(d))
  .sort();
const sql = (name: string) => fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
const before = migrations.slice(0, migrations.indexOf(WORKSPACES));

describe("the workspaces migration", () => {
  it("moves every existing conversation to the default workspace it creates", async () => {
    expect(before.length).toBeGreaterThan(0);
    const insert = `INSERT INTO "Conversation" ("id", "title", "updatedAt") VALUES ('old-1', 'Before workspaces', CURRENT_TIMESTAMP)`;
    const check = `SELECT c."id", c."workspaceId", w."name" FROM "Conversation" c JOIN "Workspace" w ON w."id" = c."workspaceId"`;
    let rows: unknown[];
    if (kind === "postgres") {
      const { default: pg } = await import("pg");
      const url = await createPostgresDatabase(process.env.TEST_POSTGRES_URL!, `hintline_wsmig_${process.pid}`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (const m of before) await client.query(sql(m));
        await client.query(insert);
        await client.query(sql(WORKSPACES));
        rows = (await client.query(check)).rows;
      } finally {
        await client.end();
      }
    } else {
      const db = new Database(path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hintline-wsmig-")), "m.db"));
      for (const m of before) db.exec(sql(m));
      db.exec(insert);
      db.exec(sql(WORKSPACES));
      rows = db.prepare(check).all();
      db.close();
    }
    expect(rows).toEqual([{ id: "old-1", workspaceId: "default", name: "default" }]);
  });
});
