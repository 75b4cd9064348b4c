import { describe, expect, it } from "vitest";
import { formatTraceparent, parseTraceparent } from "./traceparent.ts";

const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const spanId = "00f067aa0ba902b7";

describe("traceparent", () => {
  it("writes a span's context and reads it back", () => {
    const value = formatTraceparent({ traceId, spanId, traceFlags: 1 });
    expect(value).toBe(`00-${traceId}-${spanId}-01`);
    expect(parseTraceparent(value)).toEqual({ traceId, spanId, traceFlags: 1, isRemote: true });
    expect(formatTraceparent({ traceId, spanId, traceFlags: 0 })).toBe(`00-${traceId}-${spanId}-00`);
  });

  it("names nothing for a context without a span, and reads anything else stored as none", () => {
    expect(formatTraceparent({ traceId: "0".repeat(32), spanId: "0".repeat(16), traceFlags: 1 })).toBeUndefined();
    for (const forged of [
      undefined,
      42,
      "",
      `00-${"0".repeat(32)}-${spanId}-01`,
      `00-${traceId}-${"0".repeat(16)}-01`,
      `01-${traceId}-${spanId}-01`,
      `00-${traceId.toUpperCase()}-${spanId}-01`,
      `00-${traceId}-${spanId}-01-extra`,
      `00-${traceId}-${spanId}-01\n`,
      `00-${traceId}x-${spanId}-01`,
      "x".repeat(100_000),
    ]) {
      expect(parseTraceparent(forged)).toBeUndefined();
    }
    // Flags other than "sampled" are not carried.
    expect(parseTraceparent(`00-${traceId}-${spanId}-ff`)?.traceFlags).toBe(1);
  });
});
