import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };
/** Unit tests that set process.env.TZ, which a worker thread cannot change for its own clock. */
const UNIT_ZONE = ["lib/agent/hints/read-time.test.ts"];

// Projects: fast unit tests (colocated with their modules), persistence tests run once on SQLite and once on
// PostgreSQL (same files), and API tests against real `next start` servers.
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: [
            "lib/**/*.test.ts",
            "components/**/*.test.ts",
            "tests/support/**/*.test.ts",
            "eval/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          // The time zone is the process's: a test that sets TZ runs in a process of its own (unit-zone).
          exclude: [...configDefaults.exclude, ...UNIT_ZONE],
          environment: "node",
          // Worker threads load a file's modules faster than child processes: 120 s instead of 167 s for the suite.
          pool: "threads",
        },
      },
      {
        resolve: { alias },
        test: { name: "unit-zone", include: UNIT_ZONE, environment: "node", pool: "forks" },
      },
      {
        resolve: { alias },
        test: {
          name: "db-sqlite",
          include: ["tests/db/**/*.test.ts"],
          // PostgreSQL's row locks and deadlocks, and its lease rows: left out here rather than skipped.
          exclude: ["tests/db/append-locks.test.ts", "tests/db/live-leases.test.ts"],
          globalSetup: ["tests/support/db-global-setup.ts"],
          provide: { databaseKind: "sqlite" },
          fileParallelism: false,
          pool: "threads",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "db-postgres",
          include: ["tests/db/**/*.test.ts"],
          // The direct SQLite path's tests run on SQLite only: left out here rather than skipped.
          exclude: ["tests/db/sqlite-direct.test.ts"],
          globalSetup: ["tests/support/db-global-setup.ts"],
          provide: { databaseKind: "postgres" },
          fileParallelism: false,
          pool: "threads",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
