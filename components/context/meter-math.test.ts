import { describe, expect, it } from "vitest";
import { meterLabel, shortTokens, zoneOf } from "./meter-math";

const usage = (inputTokens: number) => ({ inputTokens, contextWindow: 128_000, triggerTokens: 102_400, bufferStartTokens: 76_800 });

describe("meter math", () => {
  it("labels like “54k / 128k · 42%” and picks the zone by the buffer start and the trigger", () => {
    expect(meterLabel(usage(54_000))).toBe("54k / 128k · 42%");
    expect(shortTokens(1234)).toBe("1.2k");
    expect(zoneOf(usage(76_800))).toBe("ok");
    expect(zoneOf(usage(76_801))).toBe("buffer");
    expect(zoneOf(usage(102_400))).toBe("trigger");
  });
});
