// `npm test`: every check, each suite closing with a plain `name: N passed, N failed, N skipped` line and the run
// with `total: N passed, N failed, N skipped`.
//   lint · typecheck · unit · db (SQLite and PostgreSQL) · api (real servers) · e2e (Chromium)
// PostgreSQL: TEST_POSTGRES_URL, or a throwaway server started with scripts/pg-temp.sh.
// Options: --only=unit,api (run some suites); HINTLINE_SKIP_E2E=1 / HINTLINE_SKIP_POSTGRES=1 to leave suites out
// on a machine without Chromium or PostgreSQL (counted as skipped, never as passed). Under CI (CI=true) nothing may be
// skipped: a skipped test or a suite left out fails the run.
// The two slow suites (api and e2e) run side by side, each line of their output prefixed with the suite's name and the
// whole of it kept in test-results/<suite>.log. The whole run takes about 30 min on a 2-core machine (CI's is slower;
// its limit is 45).
// The app is built (when its sources changed) beside the unit and db suites, which use one core each.
// HINTLINE_TEST_SERIAL=1 runs them one after the other. The run ends with the names of the tests that failed.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { buildIsStale } from "./start.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules/.bin", name);
const only = process.argv
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const wanted = (suite) => !only || only.includes(suite);
const underCi = !!process.env.CI && !["false", "0"].includes(process.env.CI);
const results = [];
process.env.NEXT_TELEMETRY_DISABLED = "1";

/** Runs a command with the terminal as its output, without blocking what runs beside it (the build's output). */
function run(cmd, args, env = {}) {
  const started = Date.now();
  const child = spawn(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return new Promise((resolve) => {
    child.on("close", (status) => resolve({ ok: status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) }));
  });
}

/** The suite's line: `name: N passed, N failed, N skipped`, with what was left out and how long it took. */
export function suiteLine(name, { passed, failed, skipped }, extra = "") {
  return `${name}: ${passed} passed, ${failed} failed, ${skipped} skipped${extra}`;
}

/** Runs a command with its output prefixed by `[name] ` and copied to test-results/<name>.log. */
function runPrefixed(name, cmd, args, env = {}) {
  const started = Date.now();
  const log = fs.createWriteStream(path.join(root, `test-results/${name}.log`));
  const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
      console.log(`[${name}] ${line}`);
      log.write(`${line}\n`);
    });
  }
  return new Promise((resolve) => {
    child.on("close", (status) => {
      log.end();
      resolve({ ok: status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) });
    });
  });
}

function report(name, counts, extra = "") {
  results.push({ name, skipped: 0, ...counts });
  console.log(`\n${suiteLine(name, { skipped: 0, ...counts }, extra)}`);
}

async function check(name, cmd, args) {
  if (!wanted(name)) return;
  const { ok, seconds } = await run(cmd, args);
  report(name, { passed: ok ? 1 : 0, failed: ok ? 0 : 1 }, ` (${seconds}s)`);
}

/** Counts from Vitest's JSON report: skipped (`.skip`, `skipIf`) and todo tests count as skipped. */
export function countVitest(data) {
  return {
    passed: data.numPassedTests ?? 0,
    failed: (data.numFailedTests ?? 0) + (data.numRuntimeErrorTestSuites ?? 0),
    skipped: (data.numPendingTests ?? 0) + (data.numTodoTests ?? 0),
  };
}

/** Counts from Playwright's JSON report: flaky (passed on a retry) counts as failed. */
export function countPlaywright(stats = {}) {
  return {
    passed: stats.expected ?? 0,
    failed: (stats.unexpected ?? 0) + (stats.flaky ?? 0),
    skipped: stats.skipped ?? 0,
  };
}

const failures = [];

/**
 * Runs one suite's command and reports it from its JSON report `out`: counted by `count`, its failed tests named by
 * `failedOf`. A command that failed without a report counts as one failure. `parallel`: run beside another suite,
 * output prefixed.
 */
async function suite(
  name,
  { cmd, args, env = {}, out, count, failedOf, extra = "", leftOut = () => 0, parallel = false },
) {
  fs.rmSync(out, { force: true });
  const { ok, seconds } = await (parallel ? runPrefixed(name, cmd, args, env) : run(cmd, args, env));
  const data = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, "utf8")) : undefined;
  const counts = data ? count(data) : { passed: 0, failed: 1, skipped: 0 };
  if (!ok && counts.failed === 0) counts.failed = 1;
  counts.skipped += leftOut(counts);
  if (data) failures.push(...failedOf(data).map((f) => `${name}: ${f}`));
  report(name, counts, `${extra} (${seconds}s)`);
}

/**
 * Runs Vitest projects as one suite. `leftOut(counts)`: tests of the suite that were not run at all (a database left
 * out), counted as skipped.
 */
async function vitestSuite(name, projects, options = {}) {
  if (!wanted(name)) return;
  const out = path.join(root, `test-results/${name}.json`);
  const args = [
    "run",
    ...projects.flatMap((p) => ["--project", p]),
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${out}`,
  ];
  await suite(name, { cmd: bin("vitest"), args, out, count: countVitest, failedOf: failedVitest, ...options });
}

function e2eSuite({ parallel }) {
  const out = path.join(root, "test-results/e2e.json");
  return suite("e2e", {
    cmd: bin("playwright"),
    args: ["test"],
    out,
    count: (data) => countPlaywright(data.stats),
    failedOf: failedPlaywright,
    parallel,
  });
}

/** The failed tests of a Vitest JSON report, as `file › title` (a file that failed to load counts as one). */
export function failedVitest(data) {
  const failed = [];
  for (const file of data.testResults ?? []) {
    const name = path.relative(root, file.name ?? "");
    const tests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of tests) failed.push(`${name} › ${t.fullName ?? t.title}`);
    if (!tests.length && file.status === "failed")
      failed.push(`${name} (${(file.message ?? "failed").split("\n")[0]})`);
  }
  return failed;
}

/** The failed (or flaky) tests of a Playwright JSON report, as `file:line › title`. */
export function failedPlaywright(data) {
  const failed = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      if (!spec.ok || (spec.tests ?? []).some((t) => t.status === "flaky"))
        failed.push(`${spec.file}:${spec.line} › ${[...titles, spec.title].join(" › ")}`);
    }
    for (const child of suite.suites ?? [])
      walk(child, suite.file === child.file && child.title ? [...titles, child.title] : titles);
  };
  for (const suite of data.suites ?? []) walk(suite, []);
  return failed;
}

/** How many tests the browser suite holds (listed, not run: no server or browser is started). */
function countE2eTests() {
  const listed = spawnSync(bin("playwright"), ["test", "--list", "--reporter=json"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  try {
    return JSON.parse(listed.stdout).stats?.skipped ?? 0;
  } catch {
    return 0;
  }
}

/** Builds the app when its sources changed (scripts/start.mjs's ensureBuild), beside what runs meanwhile; true: built. */
async function buildApp({ parallel }) {
  if (!buildIsStale()) return true;
  const args = ["-e", 'import("./scripts/start.mjs").then((m) => m.ensureBuild())'];
  const { ok } = await (parallel ? runPrefixed("build", process.execPath, args) : run(process.execPath, args));
  return ok;
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fs.mkdirSync(path.join(root, "test-results"), { recursive: true });
  await check("lint", bin("biome"), ["check", "."]);
  await check("typecheck", bin("tsc"), ["--noEmit", "-p", "tsconfig.json"]);
  const skipE2e = process.env.HINTLINE_SKIP_E2E === "1";
  const serial = process.env.HINTLINE_TEST_SERIAL === "1";
  const built = wanted("api") || (wanted("e2e") && !skipE2e) ? buildApp({ parallel: !serial }) : Promise.resolve(true);
  if (serial) await built;
  await vitestSuite("unit", ["unit", "unit-zone"]);

  // One PostgreSQL server for the persistence tests and the API tests that also run on PostgreSQL.
  const skipPostgres = process.env.HINTLINE_SKIP_POSTGRES === "1";
  let postgres;
  if ((wanted("db") || wanted("api")) && !skipPostgres) {
    postgres = postgresUrl();
    if (!postgres) {
      console.error("PostgreSQL is not available: install it or set TEST_POSTGRES_URL (or HINTLINE_SKIP_POSTGRES=1)");
      report("postgres", { passed: 0, failed: 1 });
    }
  } else if (skipPostgres) {
    console.log("PostgreSQL skipped (HINTLINE_SKIP_POSTGRES=1): db and api tests run on SQLite only");
  }
  const postgresEnv = postgres ? { TEST_POSTGRES_URL: postgres } : {};
  // Without PostgreSQL, the persistence tests' PostgreSQL half (the same files as the SQLite half) is counted as skipped.
  await vitestSuite("db", postgres ? ["db-sqlite", "db-postgres"] : ["db-sqlite"], {
    env: postgresEnv,
    ...(postgres ? {} : { extra: " (PostgreSQL left out)", leftOut: (c) => c.passed + c.failed + c.skipped }),
  });

  if (!(await built)) {
    report("build", { passed: 0, failed: 1 });
    failures.push("build: `next build` failed (its output is above, and in test-results/build.log)");
  }
  const runE2e = wanted("e2e") && !skipE2e;
  const parallel = wanted("api") && runE2e && !serial;
  const api = vitestSuite("api", ["api"], {
    env: postgresEnv,
    extra: postgres ? "" : " (PostgreSQL variants left out)",
    parallel,
  });
  if (!parallel) await api;
  const e2e = runE2e ? e2eSuite({ parallel }) : undefined;
  if (wanted("e2e") && skipE2e)
    report("e2e", { passed: 0, failed: 0, skipped: countE2eTests() }, " (HINTLINE_SKIP_E2E=1: not run)");
  await Promise.all([api, e2e]);

  const sum = (key) => results.reduce((n, r) => n + r[key], 0);
  const [passed, failed, skipped] = [sum("passed"), sum("failed"), sum("skipped")];
  const skippedUnderCi = underCi && (skipped > 0 || skipPostgres || skipE2e);
  console.log(
    `\nsuites: ${results.map((r) => `${r.name} ${r.failed ? "FAILED" : r.skipped ? "ok, some skipped" : "ok"}`).join(" · ")}`,
  );
  if (failures.length) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
  console.log(suiteLine("total", { passed, failed, skipped }));
  if (skippedUnderCi)
    console.error("CI: tests were skipped; under CI every test must run (a skip there hides a test that cannot fail)");
  process.exit(failed || skippedUnderCi ? 1 : 0);
}
