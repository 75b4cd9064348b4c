import { describe, expect, it } from "vitest";
import { eachYielding, mapYielding } from "./yielding.ts";

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe("work in slices", () => {
  it("lets other callbacks run between slices of a long job, and does every item in order", async () => {
    const order: string[] = [];
    const other = setInterval(() => order.push("other"), 0);
    await eachYielding(
      Array.from({ length: 12 }, (_, i) => i),
      (i) => {
        busy(3);
        order.push(String(i));
      },
    );
    clearInterval(other);
    expect(order.filter((x) => x !== "other")).toEqual(Array.from({ length: 12 }, (_, i) => String(i)));
    // 36 ms of work in slices of ~8 ms: the other callback ran in between, not only after.
    const firstOther = order.indexOf("other");
    expect(firstOther).toBeGreaterThan(0);
    expect(firstOther).toBeLessThan(order.indexOf("11"));
  });

  it("does a short job without yielding at all", async () => {
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    expect(await mapYielding([1, 2, 3], (n) => n * 2)).toEqual([2, 4, 6]);
    expect(ran).toBe(false);
  });
});
