// `npm start`: migrates the database (creating the SQLite file on first run), builds the app when the build is
// missing or made from other inputs (BUILD_INPUTS below), then serves it (scripts/server.mjs) on HOST (default
// 127.0.0.1) and PORT (default 3000). An address open to the network is refused without HINTLINE_AUTH_TOKEN, before
// anything else is done.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { exitUnlessSqliteDriverLoads } from "./native-modules.mjs";
import { exitUnlessNodeWillDo } from "./node-version.mjs";
import { listenHost, serve } from "./server.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(ROOT, "node_modules/next/dist/bin/next");
process.env.NEXT_TELEMETRY_DISABLED = "1";
// SIGTERM drains the server (lib/ops/shutdown.ts): Next.js's own handler would stop listening and wait for every open
// stream instead.
process.env.NEXT_MANUAL_SIG_HANDLE = "true";

/**
 * Everything `next build` reads: the app's code (the generated Prisma client in lib/db/generated included), its
 * assets, and every config and lock file that changes what is built. Colocated unit tests are no input.
 */
export const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.mjs",
  "postcss.config.mjs",
  "tailwind.config.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
  "prisma/schema.prisma",
];
/** Written into the build directory after a build made here: the fingerprint of the inputs it was built from. */
const INPUTS_STAMP = "hintline-inputs.sha256";
const isUnitTest = (name) => /\.test\.tsx?$/.test(name);

/** The input files under `root`, relative and sorted. */
export function buildInputFiles(root = ROOT) {
  const files = [];
  const walk = (entry) => {
    const full = path.join(root, entry);
    if (!fs.existsSync(full)) return;
    if (!fs.statSync(full).isDirectory()) {
      if (!isUnitTest(entry)) files.push(entry);
      return;
    }
    for (const child of fs.readdirSync(full)) if (child !== "node_modules") walk(path.join(entry, child));
  };
  for (const entry of BUILD_INPUTS) walk(entry);
  return files.sort();
}

/** A hash of every input file's path and bytes: equal exactly when the build would read the same inputs. */
export function buildInputsFingerprint(root = ROOT) {
  const hash = crypto.createHash("sha256");
  for (const file of buildInputFiles(root))
    hash
      .update(`${file}\0`)
      .update(fs.readFileSync(path.join(root, file)))
      .update("\0");
  return hash.digest("hex");
}

const distPath = (root, distDir) => path.join(root, distDir ?? (process.env.HINTLINE_DIST_DIR || ".next"));

/**
 * Whether the build in `distDir` is missing or was made from other inputs than those in `root` now. A build made by
 * ensureBuild carries the fingerprint of its inputs (taken before it started, so an edit during the build counts);
 * one made otherwise (`next build`, which empties the directory) is compared by time: stale when any input is newer.
 */
export function buildIsStale({ root = ROOT, distDir } = {}) {
  const dist = distPath(root, distDir);
  const marker = path.join(dist, "BUILD_ID");
  if (!fs.existsSync(marker)) return true;
  const built = fs.statSync(marker).mtimeMs;
  const stamp = path.join(dist, INPUTS_STAMP);
  if (fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs >= built) {
    return fs.readFileSync(stamp, "utf8").trim() !== buildInputsFingerprint(root);
  }
  return buildInputFiles(root).some((file) => fs.statSync(path.join(root, file)).mtimeMs > built);
}

/** Records that the build in `distDir` was made from the inputs with `fingerprint`. */
export function recordBuildInputs(fingerprint, { root = ROOT, distDir } = {}) {
  fs.writeFileSync(path.join(distPath(root, distDir), INPUTS_STAMP), `${fingerprint}\n`);
}

export function ensureBuild() {
  if (!buildIsStale()) return;
  console.log("hintline: building the app (first start or sources changed; a few minutes)…");
  const off = ["preloadEntriesOnStart", ...(process.env.CI === "true" ? ["turbopackFileSystemCacheForBuild"] : [])];
  console.log(`hintline: the build's experiments marked ⨯ (${off.join(", ")}) are off on purpose (next.config.mjs).`);
  fs.rmSync(path.join(distPath(ROOT), INPUTS_STAMP), { force: true });
  const fingerprint = buildInputsFingerprint();
  const result = spawnSync(process.execPath, [nextBin, "build"], { cwd: ROOT, stdio: "inherit", env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // Inputs that changed while it ran (an edit, or Next adding another build directory's types to tsconfig.json):
  // no record, so this build is judged by time.
  if (buildInputsFingerprint() === fingerprint) recordBuildInputs(fingerprint);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Before anything else: on an older Node the build or the server would fail later with a far less clear error.
  exitUnlessNodeWillDo();
  const where = listenHost();
  if (where.error) {
    console.error(where.error);
    process.exit(1);
  }
  // Then the SQLite driver, a native module built for one Node.js: after a Node switch it would fail inside the
  // migration as "External error id#0".
  if (!/^postgres(ql)?:/.test(process.env.DATABASE_URL || "")) exitUnlessSqliteDriverLoads(ROOT);
  // In its own process, so the migration's database connection is closed before the server opens its own.
  const migrate = spawnSync(process.execPath, [path.join(ROOT, "scripts/db-migrate.mjs"), "deploy"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (migrate.status !== 0) process.exit(migrate.status ?? 1);
  ensureBuild();
  process.env.NODE_ENV ??= "production";
  await serve();
}
