// The shape of the code, checked: no import circles among the app's modules nor among lib/'s folders, which form
// floors (each imports only the floors below it); DESIGN.md's rules — the harness core (lib/agent) imports only lib
// root and no framework, storage (lib/db) knows no harness rules, routes and components never import storage — and no
// one reaches into the AI SDK's internals.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const SOURCE = /\.(ts|tsx|mjs)$/;
const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?["']([^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/**
 * The floors of lib/, bottom to top. A folder imports only folders on the floors below its own, so two folders on one
 * floor import nothing of each other; "lib" is the files at lib/'s root, which import none of its folders.
 */
const FLOORS: readonly (readonly string[])[] = [
  ["lib"], // the shared shapes and small helpers: chat-message.ts, clock, env-number, secrets, tool-output …
  ["lib/agent", "lib/log"], // the pure harness; the logger and the metrics' registry
  ["lib/api"], // the HTTP API's contract: errors, schemas, limits
  ["lib/db"], // storage
  ["lib/ai"], // providers, MCP clients, the demo model
  ["lib/auth"], // accounts, sessions, who is asking
  ["lib/chat"], // the services, with the agent's tools beside them (lib/chat/tools)
  ["lib/ops"], // health, the metrics served, shutdown, the request log
  ["lib/http"], // request handling: route(), bodies, better-auth's endpoints
];
/** lib/'s folder for the browser (zustand stores), beside the floors: it runs only what a browser can. */
const BROWSER_FOLDERS: Record<string, readonly string[]> = { "lib/stores": ["lib", "lib/agent"] };
/** Imports the floors would allow that DESIGN.md forbids: storage takes plain values and imports no harness rules. */
const NEVER: readonly (readonly [string, string])[] = [["lib/db", "lib/agent"]];

const mayImport = new Map<string, Set<string>>();
FLOORS.forEach((floor, level) => {
  for (const folder of floor) mayImport.set(folder, new Set(FLOORS.slice(0, level).flat()));
});
for (const [folder, allowed] of Object.entries(BROWSER_FOLDERS)) mayImport.set(folder, new Set(allowed));
for (const [from, to] of NEVER) mayImport.get(from)?.delete(to);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(rel);
    return SOURCE.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

type Import = { target: string; typeOnly: boolean };

/** A module's imports of other modules of the app (type-only and lazy imports included: they tie the modules too). */
function importsOf(file: string): Import[] {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  const found: Import[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    let target: string | undefined;
    if (spec.startsWith("@/")) target = spec.slice(2);
    else if (spec.startsWith(".")) target = path.join(path.dirname(file), spec);
    if (!target) return;
    const resolved = [target, `${target}.ts`, `${target}.tsx`, path.join(target, "index.ts")].find(
      (t) => SOURCE.test(t) && fs.existsSync(path.join(root, t)),
    );
    if (resolved) found.push({ target: path.normalize(resolved), typeOnly });
  };
  for (const match of text.matchAll(IMPORT)) add(match[2]!, !!match[1]);
  for (const match of text.matchAll(DYNAMIC_IMPORT)) add(match[1]!, false);
  return found;
}

// Next.js's own entry points at the root belong with the routes.
const files = [...["lib", "app", "components"].flatMap(sourceFiles), "instrumentation.ts", "proxy.ts"];
const graph = new Map(files.map((f) => [path.normalize(f), importsOf(f)]));

/** A module's folder: lib/<folder>, "lib" for lib's root files, else its top folder ("app" for the entry points). */
function folderOf(file: string): string {
  const parts = file.split("/");
  if (parts.length === 1) return "app";
  if (parts[0] !== "lib") return parts[0]!;
  return parts.length > 2 ? `lib/${parts[1]}` : "lib";
}

type Crossing = { file: string; target: string; from: string; to: string; typeOnly: boolean };

/** Every import from one folder into another that `bad` picks, as `file → target` lines (with `why`, when given). */
function crossings(bad: (c: Crossing) => boolean, why?: (c: Crossing) => string): string[] {
  const all = [...graph].flatMap(([file, imports]) =>
    imports.map((i) => ({
      file,
      target: i.target,
      from: folderOf(file),
      to: folderOf(i.target),
      typeOnly: i.typeOnly,
    })),
  );
  return all.filter((c) => c.from !== c.to && bad(c)).map((c) => `${c.file} → ${c.target}${why ? ` (${why(c)})` : ""}`);
}

/** Every cycle found by a depth-first walk of `edges`, each once, as the list of its nodes. */
function cyclesOf(edges: Map<string, Iterable<string>>): string[][] {
  const found = new Map<string, string[]>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const target of edges.get(node) ?? []) {
      if (state.get(target) === "open") {
        const cycle = stack.slice(stack.indexOf(target));
        const key = [...cycle].sort().join(" ");
        if (!found.has(key)) found.set(key, cycle);
      } else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return [...found.values()];
}

/** lib/'s folders and, for each import between two of them, one module-to-module import that makes it. */
function folderGraph(): Map<string, Map<string, string>> {
  const folders = new Map<string, Map<string, string>>();
  for (const [file, imports] of graph) {
    const from = folderOf(file);
    if (!from.startsWith("lib")) continue;
    const out = folders.get(from) ?? folders.set(from, new Map()).get(from)!;
    for (const { target } of imports) {
      const to = folderOf(target);
      if (to !== from && to.startsWith("lib") && !out.has(to)) out.set(to, `${file} → ${target}`);
    }
  }
  return folders;
}

describe("house rules", () => {
  it("has no import circles", () => {
    const modules = new Map([...graph].map(([file, imports]) => [file, imports.map((i) => i.target)]));
    expect(cyclesOf(modules).map((c) => [...c, c[0]].join(" → "))).toEqual([]);
  });

  it("has no circle between lib/ folders", () => {
    const folders = folderGraph();
    const described = cyclesOf(new Map([...folders].map(([folder, out]) => [folder, out.keys()]))).map((cycle) => {
      const hops = cycle.map((folder, i) => folders.get(folder)!.get(cycle[(i + 1) % cycle.length]!)!);
      return `${[...cycle, cycle[0]].join(" → ")} (${hops.join("; ")})`;
    });
    expect(described).toEqual([]);
  });

  it("keeps lib/'s floors: each folder imports only the floors below it", () => {
    const unplaced = [...folderGraph().keys()]
      .filter((folder) => !mayImport.has(folder))
      .map((folder) => `${folder} is on no floor`);
    const upward = crossings(
      ({ from, to }) => mayImport.has(from) && !mayImport.get(from)!.has(to),
      ({ from }) =>
        mayImport.get(from)!.size
          ? `${from} may import only ${[...mayImport.get(from)!].join(", ")}`
          : `${from} imports no folder`,
    );
    expect([...unplaced, ...upward]).toEqual([]);
  });

  it("keeps the harness core pure: lib/agent imports only lib root (no service, storage, component or route) and no framework", () => {
    expect(crossings(({ from, to }) => from === "lib/agent" && to !== "lib")).toEqual([]);
    const frameworks = /^\s*import[^'"]*from\s+["'](next|next\/.*|react|@prisma\/.*|pg|better-sqlite3)["']/m;
    expect(
      files.filter((f) => f.startsWith("lib/agent/") && frameworks.test(fs.readFileSync(path.join(root, f), "utf8"))),
    ).toEqual([]);
  });

  it("keeps storage free of harness rules: lib/db imports nothing of lib/agent", () => {
    expect(crossings(({ from, to }) => from === "lib/db" && to === "lib/agent")).toEqual([]);
  });

  it("has routes and pages reach storage only through lib/chat: app imports nothing of lib/db", () => {
    expect(crossings(({ from, to }) => from === "app" && to === "lib/db")).toEqual([]);
  });

  it("has components import no storage, and the server's folders for their types only", () => {
    const browser = new Set(["lib", "lib/agent", "lib/stores", "components"]);
    expect(
      crossings(
        ({ from, to, typeOnly }) => from === "components" && (to === "lib/db" || (!browser.has(to) && !typeOnly)),
      ),
    ).toEqual([]);
  });

  it("has one request path for every provider: nothing reaches into the AI SDK's internals", () => {
    expect(
      files.filter((f) =>
        /from\s+["'](ai|@ai-sdk\/[\w-]+)\/internal["']/.test(fs.readFileSync(path.join(root, f), "utf8")),
      ),
    ).toEqual([]);
  });

  it("reads the tool-call counter line in one place", () => {
    // The counter's text is written by tool-result.ts; anything that parses it must go through its helpers.
    const parsers = files.filter((f) => /Tool call #\(?\\d/.test(fs.readFileSync(path.join(root, f), "utf8")));
    expect(parsers).toEqual(["lib/agent/tool-result.ts"]);
  });
});
