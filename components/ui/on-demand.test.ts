import { describe, expect, it } from "vitest";
import { onDemand } from "./on-demand";

const Stub = () => null;

describe("onDemand", () => {
  it("imports once: later loads join the first and get the same component", async () => {
    let imports = 0;
    const part = onDemand(async () => {
      imports++;
      return Stub;
    });
    expect(imports).toBe(0);
    const [a, b] = await Promise.all([part.load(), part.load()]);
    expect(await part.load()).toBe(Stub);
    expect(a).toBe(Stub);
    expect(b).toBe(Stub);
    expect(imports).toBe(1);
  });

  it("a failed import (the server gone) is reported and tried again on the next load", async () => {
    let imports = 0;
    const part = onDemand(async () => {
      imports++;
      if (imports === 1) throw new Error("Failed to load chunk");
      return Stub;
    });
    await expect(part.load()).rejects.toThrow("Failed to load chunk");
    expect(await part.load()).toBe(Stub);
    expect(imports).toBe(2);
  });
});
