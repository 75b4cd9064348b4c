import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { betterSqliteProblem, isNativeBuildError } from "./native-modules.mjs";

const root = path.resolve(import.meta.dirname, "..");
const ABI_MESSAGE =
  "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 127. This version of Node.js requires\nNODE_MODULE_VERSION 137. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).";

/** A checkout whose better-sqlite3 throws what a native module built for another Node.js throws when loaded. */
function stubRoot(body: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-native-"));
  fs.writeFileSync(path.join(dir, "package.json"), "{}");
  const mod = path.join(dir, "node_modules/better-sqlite3");
  fs.mkdirSync(mod, { recursive: true });
  fs.writeFileSync(path.join(mod, "package.json"), JSON.stringify({ name: "better-sqlite3", main: "index.js" }));
  fs.writeFileSync(path.join(mod, "index.js"), body);
  return dir;
}
const abiRoot = stubRoot(`const e = new Error(${JSON.stringify(ABI_MESSAGE)}); e.code = "ERR_DLOPEN_FAILED"; throw e;`);
const workingRoot = stubRoot("module.exports = class { close() {} };");
afterAll(() => {
  for (const dir of [abiRoot, workingRoot]) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the SQLite driver check `npm start` runs", () => {
  it("recognises a native module built for another Node.js and says what to run", () => {
    const problem = betterSqliteProblem(abiRoot, "v24.22.3");
    expect(problem).toContain(
      "better-sqlite3 (the SQLite driver, a native module) was built for another Node.js version than this one (v24.22.3)",
    );
    expect(problem).toContain(
      "Run `npm rebuild better-sqlite3` (or `npm ci`) with this Node.js, then `npm start` again.",
    );
    expect(problem).toContain("NODE_MODULE_VERSION 127");
    expect(isNativeBuildError(new Error("invalid ELF header"))).toBe(true);
    expect(isNativeBuildError(new Error("SQLITE_BUSY"))).toBe(false);
  });

  it("passes a driver that loads, this checkout's included", () => {
    expect(betterSqliteProblem(workingRoot)).toBeNull();
    expect(betterSqliteProblem(root)).toBeNull();
  });

  it("stops the process with status 1 and the sentence, in a real process", () => {
    const script = `
      const { exitUnlessSqliteDriverLoads } = await import(${JSON.stringify(path.join(root, "scripts/native-modules.mjs"))});
      exitUnlessSqliteDriverLoads(${JSON.stringify(abiRoot)});
      console.log("went on");`;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stdout).not.toContain("went on");
    expect(result.stderr).toContain("Run `npm rebuild better-sqlite3`");
  }, 30_000);

  it("catches the real error of this checkout's driver under another Node.js, when the machine has one", () => {
    const other = ["/usr/bin/node", "/usr/local/bin/node"].find(
      (p) => fs.existsSync(p) && fs.realpathSync(p) !== fs.realpathSync(process.execPath),
    );
    if (!other) return;
    const version = spawnSync(other, ["-p", "process.versions.modules"], { encoding: "utf8" }).stdout.trim();
    if (version === process.versions.modules) return;
    const script = `import(${JSON.stringify(path.join(root, "scripts/native-modules.mjs"))}).then((m) => console.log(m.betterSqliteProblem(${JSON.stringify(root)})))`;
    const result = spawnSync(other, ["-e", script], { encoding: "utf8" });
    expect(result.stdout).toContain("was built for another Node.js version than this one");
  }, 30_000);

  it("runs in `npm start` before the migration, for SQLite only", () => {
    const start = fs.readFileSync(path.join(root, "scripts/start.mjs"), "utf8");
    const check = start.indexOf("exitUnlessSqliteDriverLoads(");
    expect(check).toBeGreaterThan(start.indexOf("exitUnlessNodeWillDo();"));
    expect(check).toBeLessThan(start.indexOf("db-migrate.mjs"));
  });
});
