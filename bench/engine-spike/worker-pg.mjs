// The baseline: what pg alone (which Hintline loads on PostgreSQL anyway) costs to import and connect.
import { performance } from "node:perf_hooks";
import { mem, startLine } from "./common.mjs";

const before = mem();
const t0 = performance.now();
const { default: pg } = await import("pg");
const importMs = performance.now() - t0;
const afterImport = mem();
const t1 = performance.now();
const pool = new pg.Pool({ connectionString: process.env.DB_URL });
await pool.query("SELECT 1");
startLine("pg", { importMs, startMs: performance.now() - t1, before, afterImport, afterStart: mem() });
await pool.end();
