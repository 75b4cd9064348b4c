// `npm run backup -- <file>`: a consistent copy of the SQLite database while the server runs, through SQLite's online
// backup API (better-sqlite3's db.backup: pages are copied in steps, and a write made meanwhile restarts the copy, so
// the result is one committed state, never a torn file), then checked: PRAGMA integrity_check and the row counts.
// The copy is written next to its destination and renamed once it passed the check. PostgreSQL: use pg_dump
// (docs/operations.md).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TABLES = ["Conversation", "Message", "Task", "Workspace", "MemoryEntry", "KnowledgeFile", "Skill"];

/** The database file DATABASE_URL names (default: data/hintline.db), relative to the project. */
export function databaseFile(url = process.env.DATABASE_URL || "file:./data/hintline.db") {
  if (/^postgres(ql)?:\/\//.test(url)) return undefined;
  return path.resolve(root, url.replace(/^file:/, ""));
}

/** Copies `source` to `target` with the online backup API and checks the copy; returns its row counts. */
export async function backup(source, target) {
  if (!fs.existsSync(source)) throw new Error(`There is no database at ${source}.`);
  if (fs.existsSync(target)) throw new Error(`${target} exists already; name a new file.`);
  const partial = `${target}.partial`;
  fs.rmSync(partial, { force: true });
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    await db.backup(partial);
  } finally {
    db.close();
  }
  const copy = new Database(partial, { readonly: true, fileMustExist: true });
  let counts;
  try {
    const integrity = copy.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new Error(`The copy failed its integrity check: ${integrity}`);
    const present = new Set(copy.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all());
    counts = Object.fromEntries(
      TABLES.filter((t) => present.has(t)).map((t) => [t, copy.prepare(`SELECT count(*) FROM "${t}"`).pluck().get()]),
    );
  } catch (error) {
    copy.close();
    fs.rmSync(partial, { force: true });
    throw error;
  }
  copy.close();
  fs.renameSync(partial, target);
  return counts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  const source = databaseFile();
  if (!target) {
    console.error(
      "usage: npm run backup -- <file>   (copies the SQLite database DATABASE_URL names, default data/hintline.db)",
    );
    process.exit(2);
  }
  if (!source) {
    console.error(
      'DATABASE_URL names PostgreSQL: back it up with pg_dump (see docs/operations.md), e.g.\n  pg_dump --format=custom --file=hintline.dump "$DATABASE_URL"',
    );
    process.exit(2);
  }
  try {
    const started = Date.now();
    const counts = await backup(source, path.resolve(target));
    const figures = Object.entries(counts)
      .map(([table, n]) => `${n} ${table}`)
      .join(", ");
    console.log(
      `backup: ${path.resolve(target)} (${fs.statSync(path.resolve(target)).size} bytes, ${Date.now() - started} ms): integrity ok; ${figures}`,
    );
  } catch (error) {
    console.error(`backup failed: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
