import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };

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
          environment: "node",
        },
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
