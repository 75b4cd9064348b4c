// `npm start`: migrates the database (creating the SQLite file on first run), builds the app when the build is
// missing or older than the sources, then serves it (scripts/server.mjs) on HOST (default 127.0.0.1) and PORT (default
// 3000). An address open to the network is refused without HINTLINE_AUTH_TOKEN, before anything else is done.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { exitUnlessNodeWillDo } from "./node-version.mjs";
import { listenHost, serve } from "./server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");
process.env.NEXT_TELEMETRY_DISABLED = "1";

const SOURCES = ["app", "components", "lib", "public", "proxy.ts", "next.config.mjs", "package-lock.json", "postcss.config.mjs"];

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) {
    if (child === "generated" || child === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

export function buildIsStale() {
  const marker = path.join(root, process.env.HINTLINE_DIST_DIR || ".next", "BUILD_ID");
  if (!fs.existsSync(marker)) return true;
  const built = fs.statSync(marker).mtimeMs;
  return SOURCES.some((entry) => newestMtime(entry) > built);
}

export function ensureBuild() {
  if (!buildIsStale()) return;
  console.log("hintline: building the app (first start or sources changed)…");
  const result = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit", env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Before anything else: on an older Node the build or the server would fail later with a far less clear error.
  exitUnlessNodeWillDo();
  const where = listenHost();
  if (where.error) {
    console.error(where.error);
    process.exit(1);
  }
  // In its own process, so the migration's database connection is closed before the server opens its own.
  const migrate = spawnSync(process.execPath, [path.join(root, "scripts/db-migrate.mjs"), "deploy"], { cwd: root, stdio: "inherit" });
  if (migrate.status !== 0) process.exit(migrate.status ?? 1);
  ensureBuild();
  process.env.NODE_ENV ??= "production";
  await serve();
}
