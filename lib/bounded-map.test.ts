import { describe, expect, it } from "vitest";
import { approximateBytes, BoundedMap, sharedBoundedMap, sharedCacheSizes } from "./bounded-map.ts";

describe("BoundedMap", () => {
  it("keeps at most maxEntries, dropping the least recently used", () => {
    const map = new BoundedMap<string, number>({ maxEntries: 2 });
    map.set("a", 1).set("b", 2);
    map.get("a"); // a is now the most recent
    map.set("c", 3);
    expect([...map.keys()]).toEqual(["a", "c"]);
  });

  it("keeps at most maxBytes by its estimate, and re-weighs an entry set again", () => {
    const map = new BoundedMap<string, string>({ maxEntries: 100, maxBytes: 1000, sizeOf: (_k, v) => v.length });
    for (let i = 0; i < 10; i++) map.set(`k${i}`, "x".repeat(300));
    expect(map.bytes).toBeLessThanOrEqual(1000);
    expect([...map.keys()]).toEqual(["k7", "k8", "k9"]);
    map.set("k9", "x".repeat(900));
    expect([...map.keys()]).toEqual(["k9"]);
    expect(map.bytes).toBe(900);
    map.set("huge", "x".repeat(2000)); // larger than the bound on its own: not kept
    expect(map.has("huge")).toBe(false);
    expect(map.bytes).toBe(900);
    map.delete("k9");
    expect(map.bytes).toBe(0);
  });

  it("is one per process when shared by name", () => {
    const a = sharedBoundedMap<string, number>("bounded-map-test", { maxEntries: 2 });
    const b = sharedBoundedMap<string, number>("bounded-map-test", { maxEntries: 2 });
    a.set("x", 1);
    expect(b.get("x")).toBe(1);
    expect(sharedCacheSizes()["bounded-map-test"]).toEqual({ entries: 1, bytes: 0 });
  });

  it("estimates the bytes of JSON-like values by their text", () => {
    expect(approximateBytes("x".repeat(1000))).toBeGreaterThanOrEqual(2000);
    expect(approximateBytes({ parts: [{ type: "text", text: "y".repeat(5000) }] })).toBeGreaterThan(10_000);
  });
});
