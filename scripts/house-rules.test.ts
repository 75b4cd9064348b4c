// The shape of the code, checked: no import circles among the app's modules, storage (lib/db) knows no harness rules
// (lib/agent), the harness core imports no framework, and no one else reaches into the AI SDK's internals.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const SOURCE = /\.(ts|tsx)$/;
const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?["']([^"']+)["']/gm;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(rel);
    return SOURCE.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

/** A module's imports of other modules of the app (type-only imports included: they tie the modules' shapes). */
function importsOf(file: string): { target: string; typeOnly: boolean }[] {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  const found: { target: string; typeOnly: boolean }[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[2]!;
    let target: string | undefined;
    if (spec.startsWith("@/")) target = spec.slice(2);
    else if (spec.startsWith(".")) target = path.join(path.dirname(file), spec);
    if (!target) continue;
    const resolved = [target, `${target}.ts`, `${target}.tsx`, path.join(target, "index.ts")].find((t) => SOURCE.test(t) && fs.existsSync(path.join(root, t)));
    if (resolved) found.push({ target: path.normalize(resolved), typeOnly: !!match[1] });
  }
  return found;
}

const files = ["lib", "app", "components"].flatMap(sourceFiles);
const graph = new Map(files.map((f) => [path.normalize(f), importsOf(f)]));

/** Every cycle found by a depth-first walk, each once, as the list of its modules. */
function cycles(): string[][] {
  const found = new Map<string, string[]>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const { target } of graph.get(file) ?? []) {
      if (state.get(target) === "open") {
        const cycle = stack.slice(stack.indexOf(target));
        const key = [...cycle].sort().join(" ");
        if (!found.has(key)) found.set(key, cycle);
      } else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return [...found.values()];
}

describe("house rules", () => {
  it("has no import circles", () => {
    expect(cycles().map((c) => [...c, c[0]].join(" → "))).toEqual([]);
  });

  it("storage imports no harness rules, and the harness core no framework", () => {
    const offending = (dir: string, bad: (target: string) => boolean) =>
      [...graph].filter(([file]) => file.startsWith(dir)).flatMap(([file, imports]) => imports.filter((i) => bad(i.target)).map((i) => `${file} → ${i.target}`));
    expect(offending("lib/db/", (t) => t.startsWith("lib/agent/"))).toEqual([]);
    const frameworks = /^\s*import[^'"]*from\s+["'](next|next\/.*|react|@prisma\/.*|pg|better-sqlite3)["']/m;
    expect(files.filter((f) => f.startsWith("lib/agent/") && frameworks.test(fs.readFileSync(path.join(root, f), "utf8")))).toEqual([]);
    // One request path for every provider: nothing reaches into the AI SDK's internals.
    expect(files.filter((f) => /from\s+["'](ai|@ai-sdk\/[\w-]+)\/internal["']/.test(fs.readFileSync(path.join(root, f), "utf8")))).toEqual([]);
  });

  it("reads the tool-call counter line in one place", () => {
    // The counter's text is written by tool-result.ts; anything that parses it must go through its helpers.
    const parsers = files.filter((f) => /Tool call #\(?\\d/.test(fs.readFileSync(path.join(root, f), "utf8")));
    expect(parsers).toEqual(["lib/agent/tool-result.ts"]);
  });
});
