// The native-module check `npm start` runs before the migration: better-sqlite3 is compiled for one Node.js ABI, and
// after switching Node versions loading it fails deep inside Prisma with "External error id#0". Loading it here first
// turns that into a sentence that says what to run.
import { createRequire } from "node:module";
import path from "node:path";

const ABI_PATTERNS = [
  /NODE_MODULE_VERSION/,
  /compiled against a different Node\.js version/i,
  /invalid ELF header/i,
  /wrong ELF class/i,
  /not a valid Win32 application/i,
  /mach-o, but wrong architecture/i,
  /Could not locate the bindings file/i,
];

/** True for the errors a native addon built for another Node.js version (or another machine) throws when loaded. */
export function isNativeBuildError(error) {
  const message = error instanceof Error ? error.message : String(error);
  return (error && error.code === "ERR_DLOPEN_FAILED") || ABI_PATTERNS.some((pattern) => pattern.test(message));
}

/**
 * Why better-sqlite3 cannot be used from this Node.js (what was found, what to run), or null when it loads and opens
 * an in-memory database. `root` is where node_modules is; a SQLite-less setup (PostgreSQL) need not call this.
 */
export function betterSqliteProblem(root, nodeVersion = process.version) {
  const require = createRequire(path.join(root, "package.json"));
  try {
    const Database = require("better-sqlite3");
    new Database(":memory:").close();
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error && error.code === "MODULE_NOT_FOUND" && /better-sqlite3/.test(message) && !/\.node\b/.test(message)) {
      return "better-sqlite3 is not installed. Run `npm ci` (or `npm install`), then `npm start` again.";
    }
    if (!isNativeBuildError(error)) return null; // Not a build problem: let the migration report it as it happens.
    return (
      `better-sqlite3 (the SQLite driver, a native module) was built for another Node.js version than this one (${nodeVersion}), ` +
      "which happens after switching Node versions.\n" +
      "Run `npm rebuild better-sqlite3` (or `npm ci`) with this Node.js, then `npm start` again.\n" +
      `(${message.split("\n").join(" ").replace(/\s+/g, " ").trim()})`
    );
  }
}

/** Prints the problem to stderr and exits with status 1 when the SQLite driver cannot load. */
export function exitUnlessSqliteDriverLoads(root) {
  const problem = betterSqliteProblem(root);
  if (problem) {
    process.stderr.write(`\n${problem}\n\n`);
    process.exit(1);
  }
}
