// What holds a V8 heap snapshot's memory (bench/memory-bench.ts writes them with BENCH_HEAP_SNAPSHOT_DIR):
//   tsx bench/heap-summary.ts <file.heapsnapshot> [top=40]
// Prints the self size by node type, the largest constructors, and the objects with the largest retained size (the
// memory freed if they went), each named by the edge that holds it (a module's variable, a property) and by the chain
// of its dominators, so "a Map named `entries` in a closure of lib/db/history-cache.ts" can be read off.
import fs from "node:fs";

type Snapshot = {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
    node_count: number;
  };
  nodes: number[];
  edges: number[];
  strings: string[];
};

const file = process.argv[2];
if (!file) throw new Error("usage: tsx bench/heap-summary.ts <file.heapsnapshot> [top]");
const top = Number(process.argv[3] ?? 40);
/** `find=<text>`: also print what holds the first strings starting with <text>, holder by holder. */
const find = process.argv.find((a) => a.startsWith("find="))?.slice(5);
const snap = JSON.parse(fs.readFileSync(file, "utf8")) as Snapshot;
const { meta } = snap.snapshot;
const NF = meta.node_fields.length;
const EF = meta.edge_fields.length;
const [nType, nName, nSelf, nEdges] = ["type", "name", "self_size", "edge_count"].map((f) =>
  meta.node_fields.indexOf(f),
) as [number, number, number, number];
const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((f) => meta.edge_fields.indexOf(f)) as [
  number,
  number,
  number,
];
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const count = snap.nodes.length / NF;
const { nodes, edges, strings } = snap;

const typeOf = (n: number) => nodeTypes[nodes[n * NF + nType]!]!;
const nameOf = (n: number) => strings[nodes[n * NF + nName]!]!;
const selfOf = (n: number) => nodes[n * NF + nSelf]!;
const firstEdge = new Uint32Array(count + 1);
for (let n = 0, e = 0; n < count; n++) {
  firstEdge[n] = e;
  e += nodes[n * NF + nEdges]! * EF;
  firstEdge[n + 1] = e;
}
const edgeName = (e: number) => {
  const type = edgeTypes[edges[e + eType]!]!;
  const v = edges[e + eName]!;
  return type === "element" || type === "hidden" ? `[${v}]` : strings[v]!;
};
const followed = (e: number) => edgeTypes[edges[e + eType]!] !== "weak";

// Depth-first postorder from the root (node 0), over strong edges.
const order = new Int32Array(count).fill(-1); // postorder index
const post: number[] = [];
{
  const stack: number[] = [0];
  const cursor = new Uint32Array(count);
  const seen = new Uint8Array(count);
  seen[0] = 1;
  for (let n = 0; n < count; n++) cursor[n] = firstEdge[n]!;
  while (stack.length) {
    const n = stack.at(-1)!;
    if (cursor[n]! < firstEdge[n + 1]!) {
      const e = cursor[n]!;
      cursor[n] = e + EF;
      if (!followed(e)) continue;
      const to = edges[e + eTo]! / NF;
      if (!seen[to]) {
        seen[to] = 1;
        stack.push(to);
      }
    } else {
      stack.pop();
      order[n] = post.length;
      post.push(n);
    }
  }
}
// Predecessors of every reachable node.
const predCount = new Uint32Array(count + 1);
for (let n = 0; n < count; n++) {
  if (order[n]! < 0) continue;
  for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += EF) if (followed(e)) predCount[edges[e + eTo]! / NF]!++;
}
const predStart = new Uint32Array(count + 1);
for (let n = 0; n < count; n++) predStart[n + 1] = predStart[n]! + predCount[n]!;
const preds = new Uint32Array(predStart[count]!);
const fill = predStart.slice();
for (let n = 0; n < count; n++) {
  if (order[n]! < 0) continue;
  for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += EF) if (followed(e)) preds[fill[edges[e + eTo]! / NF]!++] = n;
}
// Dominators (Cooper, Harvey and Kennedy), on postorder indexes.
const idom = new Int32Array(count).fill(-1);
idom[0] = 0;
const intersect = (a: number, b: number) => {
  while (a !== b) {
    while (order[a]! < order[b]!) a = idom[a]!;
    while (order[b]! < order[a]!) b = idom[b]!;
  }
  return a;
};
for (let changed = true; changed; ) {
  changed = false;
  for (let i = post.length - 2; i >= 0; i--) {
    const n = post[i]!;
    let dom = -1;
    for (let p = predStart[n]!; p < predStart[n + 1]!; p++) {
      const pred = preds[p]!;
      if (idom[pred] === -1) continue;
      dom = dom === -1 ? pred : intersect(pred, dom);
    }
    if (dom !== -1 && idom[n] !== dom) {
      idom[n] = dom;
      changed = true;
    }
  }
}
const retained = new Float64Array(count);
for (const n of post) retained[n]! += selfOf(n);
for (const n of post) if (n !== 0 && idom[n]! >= 0) retained[idom[n]!]! += retained[n]!;

/** The edge from the dominator (or any holder) to `n`: how the program names it. */
function holdingEdge(n: number): string {
  const holder = idom[n]!;
  let any = "?";
  for (let p = predStart[n]!; p < predStart[n + 1]!; p++) {
    const from = preds[p]!;
    for (let e = firstEdge[from]!; e < firstEdge[from + 1]!; e += EF) {
      if (edges[e + eTo]! / NF !== n) continue;
      if (from === holder) return edgeName(e);
      if (any === "?") any = `${edgeName(e)} (of ${label(from)})`;
    }
  }
  return any;
}
const label = (n: number) => `${typeOf(n)} ${nameOf(n).slice(0, 60).replace(/\s+/g, " ")}`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

let total = 0;
const byType = new Map<string, number>();
const byCtor = new Map<string, { size: number; n: number }>();
for (let n = 0; n < count; n++) {
  total += selfOf(n);
  byType.set(typeOf(n), (byType.get(typeOf(n)) ?? 0) + selfOf(n));
  const key = typeOf(n) === "object" || typeOf(n) === "closure" ? `${typeOf(n)} ${nameOf(n)}` : typeOf(n);
  const c = byCtor.get(key) ?? { size: 0, n: 0 };
  c.size += selfOf(n);
  c.n++;
  byCtor.set(key, c);
}
console.log(`${file}: ${count.toLocaleString("en-US")} nodes, ${mib(total)} in all, ${mib(retained[0]!)} reachable`);
console.log("\nSelf size by type:");
for (const [type, size] of [...byType].sort((a, b) => b[1] - a[1]).slice(0, 12))
  console.log(`  ${mib(size).padStart(10)}  ${type}`);
console.log("\nLargest constructors by self size:");
for (const [key, c] of [...byCtor].sort((a, b) => b[1].size - a[1].size).slice(0, 20))
  console.log(`  ${mib(c.size).padStart(10)}  ×${c.n}  ${key.slice(0, 80)}`);
console.log(`\nLargest retained sizes (held by ← dominator chain):`);
const candidates = post.filter((n) => n !== 0 && !["synthetic", "hidden"].includes(typeOf(n)));
const shown = new Set<number>();
for (const n of candidates.sort((a, b) => retained[b]! - retained[a]!)) {
  if (shown.size >= top) break;
  // Skip a node whose dominator is already shown with almost the same size (the same memory, one level down).
  if (shown.has(idom[n]!) && retained[n]! > 0.9 * retained[idom[n]!]!) continue;
  shown.add(n);
  const chain: string[] = [];
  for (let d = n, i = 0; d !== 0 && i < 6; d = idom[d]!, i++) chain.push(`${holdingEdge(d)}: ${label(d)}`);
  console.log(`  ${mib(retained[n]!).padStart(10)}  ${chain.join("  ←  ")}`);
  if (typeOf(n) === "object" && nameOf(n) === "Map") console.log(`              ${mapSample(n)}`);
}

/** A Map's size and first few string keys: what the cache is keyed by tells which one it is. */
function mapSample(map: number): string {
  const children = (n: number) => {
    const out: number[] = [];
    for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += EF) out.push(edges[e + eTo]! / NF);
    return out;
  };
  const table = children(map).find(
    (c) => typeOf(c) === "array" || nameOf(c) === "OrderedHashMap" || typeOf(c) === "hidden",
  );
  if (table === undefined) return "(no table)";
  const strs = children(table).filter(
    (c) => typeOf(c) === "string" || typeOf(c) === "concatenated string" || typeOf(c) === "sliced string",
  );
  return `${children(table).length} slots; keys like ${strs
    .slice(0, 3)
    .map((c) => JSON.stringify(nameOf(c).slice(0, 70)))
    .join(", ")}`;
}

if (find) {
  console.log(`\nWhat holds strings starting with ${JSON.stringify(find)}:`);
  let shownPaths = 0;
  for (let n = 0; n < count && shownPaths < 2; n++) {
    if (typeOf(n) !== "string" || !nameOf(n).startsWith(find)) continue;
    shownPaths++;
    // Up through any holder (not only the dominator): the first path found towards the root, 14 steps at most.
    const chain: string[] = [];
    const seenHere = new Set<number>([n]);
    for (let at = n, i = 0; at !== 0 && i < 14; i++) {
      let up = -1;
      for (let p = predStart[at]!; p < predStart[at + 1]! && up < 0; p++) if (!seenHere.has(preds[p]!)) up = preds[p]!;
      if (up < 0) break;
      let via = "?";
      for (let e = firstEdge[up]!; e < firstEdge[up + 1]!; e += EF) if (edges[e + eTo]! / NF === at) via = edgeName(e);
      chain.push(`${via}: ${label(up)}`);
      seenHere.add(up);
      at = up;
    }
    console.log(`  ${mib(retained[n]!)} ${label(n).slice(0, 40)}\n    ← ${chain.join("\n    ← ")}`);
  }
}
