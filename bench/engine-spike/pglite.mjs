// PGlite, pg-boss's embedded backend, in memory: what running pg-boss on an install without PostgreSQL would add.
import { performance } from "node:perf_hooks";
import { engineImport } from "./common.mjs";

const rss = () => process.memoryUsage().rss / 2 ** 20;
const before = rss();
const t0 = performance.now();
const { PGlite } = await engineImport("pglite/node_modules/@electric-sql/pglite/dist/index.js");
const importMs = performance.now() - t0;
const t1 = performance.now();
const db = await PGlite.create();
await db.query("select 1");
const startMs = performance.now() - t1;
console.log(
  JSON.stringify({
    importMs: Math.round(importMs),
    startMs: Math.round(startMs),
    rssAddedMiB: Math.round(rss() - before),
  }),
);
await db.close();
