// `npm test`: every check, each suite closing with a plain `name: N passed, N failed` line.
//   lint · typecheck · unit · db (SQLite and PostgreSQL) · api (real servers) · e2e (Chromium)
// PostgreSQL: TEST_POSTGRES_URL, or a throwaway server started with scripts/pg-temp.sh.
// Options: --only=unit,api (run some suites); HINTLINE_SKIP_E2E=1 / HINTLINE_SKIP_POSTGRES=1 to leave suites out
// on a machine without Chromium or PostgreSQL (reported as skipped, never as passed).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuild } from "./start.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules/.bin", name);
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7).split(",");
const wanted = (suite) => !only || only.includes(suite);
const results = [];
process.env.NEXT_TELEMETRY_DISABLED = "1";

function run(cmd, args, env = {}) {
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return { ok: result.status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) };
}

function report(name, passed, failed, extra = "") {
  results.push({ name, passed, failed });
  console.log(`\n${name}: ${passed} passed, ${failed} failed${extra}`);
}

function check(name, cmd, args) {
  if (!wanted(name)) return;
  const { ok, seconds } = run(cmd, args);
  report(name, ok ? 1 : 0, ok ? 0 : 1, ` (${seconds}s)`);
}

function countVitest(file) {
  const data = JSON.parse(fs.readFileSync(file, "utf8"));
  return { passed: data.numPassedTests ?? 0, failed: (data.numFailedTests ?? 0) + (data.numRuntimeErrorTestSuites ?? 0) };
}

function vitestSuite(name, projects, env = {}) {
  if (!wanted(name)) return;
  const out = path.join(root, `test-results/${name}.json`);
  fs.rmSync(out, { force: true });
  const args = ["run", ...projects.flatMap((p) => ["--project", p]), "--reporter=default", "--reporter=json", `--outputFile.json=${out}`];
  const { ok, seconds } = run(bin("vitest"), args, env);
  const counts = fs.existsSync(out) ? countVitest(out) : { passed: 0, failed: 1 };
  if (!ok && counts.failed === 0) counts.failed = 1;
  report(name, counts.passed, counts.failed, ` (${seconds}s)`);
}

function postgresUrl() {
  if (process.env.TEST_POSTGRES_URL) return process.env.TEST_POSTGRES_URL;
  const started = spawnSync("bash", [path.join(root, "scripts/pg-temp.sh"), "start"], { encoding: "utf8" });
  if (started.status !== 0) {
    console.error(started.stderr);
    return undefined;
  }
  return started.stdout.trim().split("\n").at(-1);
}

fs.mkdirSync(path.join(root, "test-results"), { recursive: true });
check("lint", bin("biome"), ["check", "."]);
check("typecheck", bin("tsc"), ["--noEmit", "-p", "tsconfig.json"]);
vitestSuite("unit", ["unit"]);

// One PostgreSQL server for the persistence tests and the API tests that also run on PostgreSQL.
let postgres;
if ((wanted("db") || wanted("api")) && process.env.HINTLINE_SKIP_POSTGRES !== "1") {
  postgres = postgresUrl();
  if (!postgres) {
    console.error("PostgreSQL is not available: install it or set TEST_POSTGRES_URL (or HINTLINE_SKIP_POSTGRES=1)");
    report("postgres", 0, 1);
  }
} else if (process.env.HINTLINE_SKIP_POSTGRES === "1") {
  console.log("PostgreSQL skipped (HINTLINE_SKIP_POSTGRES=1): db and api tests run on SQLite only");
}
const postgresEnv = postgres ? { TEST_POSTGRES_URL: postgres } : {};
vitestSuite("db", postgres ? ["db-sqlite", "db-postgres"] : ["db-sqlite"], postgresEnv);

if (wanted("api") || wanted("e2e")) ensureBuild();
vitestSuite("api", ["api"], postgresEnv);

if (wanted("e2e")) {
  if (process.env.HINTLINE_SKIP_E2E === "1") {
    console.log("e2e: skipped (HINTLINE_SKIP_E2E=1)");
  } else {
    const out = path.join(root, "test-results/e2e.json");
    fs.rmSync(out, { force: true });
    const { ok, seconds } = run(bin("playwright"), ["test"]);
    let passed = 0;
    let failed = ok ? 0 : 1;
    if (fs.existsSync(out)) {
      const stats = JSON.parse(fs.readFileSync(out, "utf8")).stats ?? {};
      passed = stats.expected ?? 0;
      failed = (stats.unexpected ?? 0) + (stats.flaky ?? 0) + (ok || stats.unexpected ? 0 : 1);
    }
    report("e2e", passed, failed, ` (${seconds}s)`);
  }
}

const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`\nsuites: ${results.map((r) => `${r.name} ${r.failed ? "FAILED" : "ok"}`).join(" · ")}`);
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
