// The counts `npm test` (scripts/test.mjs) prints per suite and in total: skipped tests are counted, never as passed.
import { describe, expect, it } from "vitest";
import { countPlaywright, countVitest, suiteLine } from "./test.mjs";

describe("npm test's counts", () => {
  it("counts Vitest's skipped and todo tests as skipped, and files that failed to load as failed", () => {
    const report = { numTotalTests: 12, numPassedTests: 7, numFailedTests: 1, numPendingTests: 3, numTodoTests: 1, numRuntimeErrorTestSuites: 1 };
    expect(countVitest(report)).toEqual({ passed: 7, failed: 2, skipped: 4 });
    expect(countVitest({})).toEqual({ passed: 0, failed: 0, skipped: 0 });
  });

  it("counts Playwright's skipped tests as skipped and flaky ones as failed", () => {
    expect(countPlaywright({ expected: 70, unexpected: 1, flaky: 1, skipped: 2 })).toEqual({ passed: 70, failed: 2, skipped: 2 });
    expect(countPlaywright(undefined)).toEqual({ passed: 0, failed: 0, skipped: 0 });
  });

  it("prints every suite and the total as `name: N passed, N failed, N skipped`", () => {
    expect(suiteLine("unit", { passed: 7, failed: 0, skipped: 4 }, " (1.2s)")).toBe("unit: 7 passed, 0 failed, 4 skipped (1.2s)");
    expect(suiteLine("total", { passed: 0, failed: 1, skipped: 0 })).toBe("total: 0 passed, 1 failed, 0 skipped");
  });
});
