// The counts `npm test` (scripts/test.mjs) prints per suite and in total: skipped tests are counted, never as passed.
import { describe, expect, it } from "vitest";
import path from "node:path";
import { countPlaywright, countVitest, failedPlaywright, failedVitest, suiteLine } from "./test.mjs";

describe("npm test's counts", () => {
  it("counts Vitest's skipped and todo tests as skipped, and files that failed to load as failed", () => {
    const report = {
      numTotalTests: 12,
      numPassedTests: 7,
      numFailedTests: 1,
      numPendingTests: 3,
      numTodoTests: 1,
      numRuntimeErrorTestSuites: 1,
    };
    expect(countVitest(report)).toEqual({ passed: 7, failed: 2, skipped: 4 });
    expect(countVitest({})).toEqual({ passed: 0, failed: 0, skipped: 0 });
  });

  it("counts Playwright's skipped tests as skipped and flaky ones as failed", () => {
    expect(countPlaywright({ expected: 70, unexpected: 1, flaky: 1, skipped: 2 })).toEqual({
      passed: 70,
      failed: 2,
      skipped: 2,
    });
    expect(countPlaywright(undefined)).toEqual({ passed: 0, failed: 0, skipped: 0 });
  });

  it("prints every suite and the total as `name: N passed, N failed, N skipped`", () => {
    expect(suiteLine("unit", { passed: 7, failed: 0, skipped: 4 }, " (1.2s)")).toBe(
      "unit: 7 passed, 0 failed, 4 skipped (1.2s)",
    );
    expect(suiteLine("total", { passed: 0, failed: 1, skipped: 0 })).toBe("total: 0 passed, 1 failed, 0 skipped");
  });

  it("names the failed tests of both reports, so that the end of a long run says which ones failed", () => {
    const root = path.resolve(import.meta.dirname, "..");
    const vitest = {
      testResults: [
        {
          name: path.join(root, "tests/api/a.test.ts"),
          status: "failed",
          assertionResults: [
            { status: "passed", fullName: "ok" },
            { status: "failed", fullName: "chat refuses x" },
          ],
        },
        {
          name: path.join(root, "tests/api/b.test.ts"),
          status: "failed",
          message: "Cannot find module\nstack",
          assertionResults: [],
        },
        {
          name: path.join(root, "tests/api/c.test.ts"),
          status: "passed",
          assertionResults: [{ status: "passed", fullName: "fine" }],
        },
      ],
    };
    expect(failedVitest(vitest)).toEqual([
      "tests/api/a.test.ts › chat refuses x",
      "tests/api/b.test.ts (Cannot find module)",
    ]);
    const playwright = {
      suites: [
        {
          title: "chat.spec.ts",
          file: "chat.spec.ts",
          specs: [{ title: "top", file: "chat.spec.ts", line: 3, ok: false, tests: [{ status: "unexpected" }] }],
          suites: [
            {
              title: "chat",
              file: "chat.spec.ts",
              specs: [
                { title: "streams", file: "chat.spec.ts", line: 9, ok: true, tests: [{ status: "flaky" }] },
                { title: "stops", file: "chat.spec.ts", line: 20, ok: true, tests: [{ status: "expected" }] },
              ],
            },
          ],
        },
      ],
    };
    expect(failedPlaywright(playwright)).toEqual(["chat.spec.ts:3 › top", "chat.spec.ts:9 › chat › streams"]);
    expect(failedVitest({})).toEqual([]);
    expect(failedPlaywright({})).toEqual([]);
  });
});
