import { afterEach, describe, expect, it } from "vitest";
import { runLeaseMs, runTimings, TAKE_OVER_SLACK_MS } from "./lease.ts";

const names = ["HINTLINE_RUN_LEASE_MS", "HINTLINE_REPLY_LEASE_MS"] as const;
const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));

afterEach(() => {
  for (const name of names) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe("runLeaseMs", () => {
  it("reads HINTLINE_RUN_LEASE_MS, then its old name, then 15 s; never under 0.5 s", () => {
    for (const name of names) delete process.env[name];
    expect(runLeaseMs()).toBe(15_000);
    process.env.HINTLINE_REPLY_LEASE_MS = "12000";
    expect(runLeaseMs()).toBe(12_000);
    process.env.HINTLINE_RUN_LEASE_MS = "20000";
    expect(runLeaseMs()).toBe(20_000);
    process.env.HINTLINE_RUN_LEASE_MS = "5";
    expect(runLeaseMs()).toBe(500);
    process.env.HINTLINE_RUN_LEASE_MS = "soon";
    expect(runLeaseMs()).toBe(12_000);
  });
});

describe("runTimings", () => {
  it("gives pg-boss a heartbeat of the lease in whole seconds, at least 10", () => {
    expect(runTimings(15_000).heartbeatSeconds).toBe(15);
    expect(runTimings(15_001).heartbeatSeconds).toBe(16);
    expect(runTimings(10_000).heartbeatSeconds).toBe(10);
    expect(runTimings(900).heartbeatSeconds).toBe(10);
    expect(runTimings(15_000).refreshMs).toBe(7_500);
  });

  it("keeps a dead instance's lease row live until after pg-boss has failed its job and another instance took it", () => {
    for (const lease of [500, 900, 1_500, 10_000, 15_000, 60_000]) {
      const { heartbeatSeconds, lockMs, renewMs } = runTimings(lease);
      // The row was renewed at most renewMs before the death; the job fails at most heartbeatSeconds after it.
      const rowLiveAfterDeathMs = lockMs - renewMs;
      expect(rowLiveAfterDeathMs - heartbeatSeconds * 1000, `lease ${lease}`).toBeGreaterThanOrEqual(
        TAKE_OVER_SLACK_MS,
      );
      expect(renewMs).toBeLessThan(lockMs / 3);
    }
  });
});
