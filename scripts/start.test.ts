// The build staleness check of `npm start` and `npm test` (scripts/start.mjs), on a checkout made up in a temp dir:
// a change to any build input makes the build stale, so no test ever runs against an old build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildInputFiles, buildInputsFingerprint, buildIsStale, recordBuildInputs } from "./start.mjs";

// One file for every kind of build input, the generated Prisma client included.
const INPUTS = [
  "app/page.tsx",
  "components/button.tsx",
  "lib/agent/rules.ts",
  "lib/db/generated/sqlite/client.ts",
  "public/favicon.svg",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.mjs",
  "postcss.config.mjs",
  "tailwind.config.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
  "prisma/schema.prisma",
];
// What does not go into the build.
const NOT_INPUTS = [
  "lib/agent/rules.test.ts",
  "tests/api/x.test.ts",
  "docs/testing.md",
  "README.md",
  "scripts/bench.mjs",
  "prisma/migrations/1/migration.sql",
];

const HOUR = 3600_000;
let root: string;
const at = (file: string) => path.join(root, file);
const write = (file: string, text = `content of ${file}`) => {
  fs.mkdirSync(path.dirname(at(file)), { recursive: true });
  fs.writeFileSync(at(file), text);
};
const setTime = (file: string, ms: number) => fs.utimesSync(at(file), new Date(ms), new Date(ms));
/** A build made by `next build` itself: a BUILD_ID, no record of its inputs. */
const build = (when: number, distDir = ".next") => {
  write(`${distDir}/BUILD_ID`, "abc");
  setTime(`${distDir}/BUILD_ID`, when);
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-stale-"));
  const past = Date.now() - 10 * HOUR;
  for (const file of [...INPUTS, ...NOT_INPUTS]) {
    write(file);
    setTime(file, past);
  }
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("buildIsStale", () => {
  it("lists every build input and nothing else", () => {
    expect(buildInputFiles(root)).toEqual([...INPUTS].sort());
  });

  it("is stale without a build", () => {
    expect(buildIsStale({ root })).toBe(true);
    build(Date.now());
    expect(buildIsStale({ root, distDir: ".next-other" })).toBe(true);
  });

  it.each(INPUTS)("by time (a build made by next build): a change to %s makes the build stale", (file) => {
    build(Date.now() - HOUR);
    expect(buildIsStale({ root })).toBe(false);
    write(file, "changed");
    expect(buildIsStale({ root })).toBe(true);
  });

  it("by time: files that are no build input never make it stale", () => {
    build(Date.now() - HOUR);
    for (const file of NOT_INPUTS) write(file, "changed");
    expect(buildIsStale({ root })).toBe(false);
  });

  it.each(INPUTS)(
    "by fingerprint (a build made by ensureBuild): a change to %s makes it stale, whatever its time",
    (file) => {
      build(Date.now() - HOUR);
      recordBuildInputs(buildInputsFingerprint(root), { root });
      expect(buildIsStale({ root })).toBe(false);
      // Other bytes with an old time (a copy that keeps times, an edit made while the build ran): still stale.
      write(file, "changed");
      setTime(file, Date.now() - 5 * HOUR);
      expect(buildIsStale({ root })).toBe(true);
    },
  );

  it("by fingerprint: an input saved again unchanged does not make it stale; a new or removed input does", () => {
    build(Date.now() - HOUR);
    recordBuildInputs(buildInputsFingerprint(root), { root });
    for (const file of INPUTS) fs.writeFileSync(at(file), fs.readFileSync(at(file)));
    expect(buildIsStale({ root })).toBe(false);
    write("lib/new-module.ts");
    setTime("lib/new-module.ts", Date.now() - 5 * HOUR);
    expect(buildIsStale({ root })).toBe(true);
    fs.rmSync(at("lib/new-module.ts"));
    expect(buildIsStale({ root })).toBe(false);
    fs.rmSync(at("public/favicon.svg"));
    expect(buildIsStale({ root })).toBe(true);
  });

  it("a later build by next build itself is judged by time, not by the older build's fingerprint", () => {
    build(Date.now() - 2 * HOUR);
    recordBuildInputs(buildInputsFingerprint(root), { root });
    setTime(".next/hintline-inputs.sha256", Date.now() - 2 * HOUR);
    write("lib/agent/rules.ts", "changed");
    setTime("lib/agent/rules.ts", Date.now() - HOUR);
    expect(buildIsStale({ root })).toBe(true);
    build(Date.now() - HOUR / 2); // rebuilt by hand: newer than every input
    expect(buildIsStale({ root })).toBe(false);
  });

  it("follows HINTLINE_DIST_DIR's build directory", () => {
    build(Date.now() - HOUR, ".next-x");
    recordBuildInputs(buildInputsFingerprint(root), { root, distDir: ".next-x" });
    expect(buildIsStale({ root, distDir: ".next-x" })).toBe(false);
    expect(buildIsStale({ root })).toBe(true);
  });
});
