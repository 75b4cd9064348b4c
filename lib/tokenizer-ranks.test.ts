import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadRanks, packageRanks, ranksCacheFile } from "./tokenizer-ranks.ts";

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-ranks-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the tokenizer's table, read from a JSON copy", () => {
  it.each(["o200k_base", "cl100k_base"] as const)(
    "is the package's own %s table, element for element, from the copy",
    (encoding) => {
      const dir = tempDir();
      const first = loadRanks(encoding, dir);
      expect(first.from).toBe("package");
      expect(fs.existsSync(ranksCacheFile(encoding, dir))).toBe(true);
      const second = loadRanks(encoding, dir);
      expect(second.from).toBe("cache");
      // Byte arrays (tokens that are not whole UTF-8) stay arrays, strings stay strings.
      expect(second.table).toEqual(packageRanks(encoding));
      expect(second.table.some((token) => Array.isArray(token))).toBe(true);
    },
  );

  it("makes a damaged or cut copy again from the package", () => {
    const dir = tempDir();
    loadRanks("o200k_base", dir);
    const file = ranksCacheFile("o200k_base", dir);
    const whole = fs.readFileSync(file, "utf8");
    for (const damaged of [whole.slice(0, whole.length / 2), "[]", JSON.stringify(["a", "b"]), "null", ""]) {
      fs.writeFileSync(file, damaged);
      const loaded = loadRanks("o200k_base", dir);
      expect(loaded.from).toBe("package");
      expect(loaded.table.length).toBe(199_998);
      expect(fs.readFileSync(file, "utf8")).toBe(whole);
    }
  });

  it("still loads, with a warning, where the copy cannot be written", async () => {
    const dir = tempDir();
    const blocked = path.join(dir, "not-a-directory");
    fs.writeFileSync(blocked, "a file where the cache directory would be");
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    try {
      const loaded = loadRanks("o200k_base", blocked);
      expect(loaded.from).toBe("package");
      expect(loaded.table.length).toBe(199_998);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.some((message) => message.includes("could not be cached"))).toBe(true);
  });
});
