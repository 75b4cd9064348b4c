import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeVersionProblem, REQUIRED_NODE_MAJOR } from "./node-version.mjs";

describe("nodeVersionProblem", () => {
  it("accepts Node 22 and newer", () => {
    expect(REQUIRED_NODE_MAJOR).toBe(22);
    for (const version of ["v22.0.0", "v22.12.1", "v24.3.0", "v30.0.0", "22.1.0"])
      expect(nodeVersionProblem(version)).toBeNull();
  });

  it("names what is needed, what was found and what to do for older versions", () => {
    const problem = nodeVersionProblem("v20.11.1", "/usr/bin/node");
    expect(problem).toContain("needs Node.js 22 or newer");
    expect(problem).toContain("this is Node.js 20.11.1 (/usr/bin/node)");
    expect(problem).toContain("Install Node.js 22 or 24 LTS");
    expect(problem).toContain("npm ci && npm start");
    expect(nodeVersionProblem("v18.20.0")).toContain("this is Node.js 18.20.0.");
    expect(nodeVersionProblem("v21.7.3")).not.toBeNull();
    expect(nodeVersionProblem("garbage")).toContain("unknown version (garbage)");
  });

  it("makes `npm start` (scripts/start.mjs) stop first, with status 1, on an old Node", () => {
    // The same check with the version an old Node would report, in a real process running start.mjs's first lines.
    const script = `
      Object.defineProperty(process, "version", { value: "v20.11.1" });
      const { exitUnlessNodeWillDo } = await import(${JSON.stringify(path.resolve(import.meta.dirname, "node-version.mjs"))});
      exitUnlessNodeWillDo();
      console.log("went on");`;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stdout).not.toContain("went on");
    expect(result.stderr).toContain("Hintline needs Node.js 22 or newer, but this is Node.js 20.11.1");
  });
});
