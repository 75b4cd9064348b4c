// What holds the objects of one kind in a V8 heap snapshot (bench/memory-bench.ts writes them with
// BENCH_HEAP_SNAPSHOT_DIR), and how that changed since an earlier snapshot of the same process:
//   tsx bench/heap-retainers.ts <later.heapsnapshot> match=<name> [since=<earlier.heapsnapshot>] [cut=<name>]
//                               [samples=3] [depth=12] [inspect=<id>,<id>]
// <name> is a constructor or node name (`Uint8Array`, `native_bind`, `LRUNode`, `IncomingMessage`) or
// `type:<node type>` (`type:closure`). For every matching object, its shortest path from the roots (the one DevTools
// shows first); the paths are counted by their shape (indexes, ids and text left out), so "288 Uint8Arrays, each in
// the `entries` of an object held by a Timeout's callback" reads off in one line. With since=, the counts of both
// snapshots side by side (node ids are not kept between the snapshots --heapsnapshot-signal writes, so shapes are
// what can be compared). cut=<name>: what stays reachable when nothing is followed through objects of that name
// (`cut=Timeout`: what only pending timers hold). inspect=: the edges out of and into the nodes of these ids.
import fs from "node:fs";

type Snapshot = {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
};

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
const file = args.find((a) => !a.includes("="));
const match = option("match");
if (!file || !match)
  throw new Error(
    "usage: tsx bench/heap-retainers.ts <later.heapsnapshot> match=<name> [since=<earlier.heapsnapshot>] [cut=<name>]",
  );
const samples = Number(option("samples") ?? 3);
const depth = Number(option("depth") ?? 12);
const since = option("since");
const cut = option("cut");

function load(path: string) {
  const snap = JSON.parse(fs.readFileSync(path, "utf8")) as Snapshot;
  const { meta } = snap.snapshot;
  const NF = meta.node_fields.length;
  const EF = meta.edge_fields.length;
  const [nType, nName, nId, nSelf, nEdges] = ["type", "name", "id", "self_size", "edge_count"].map((f) =>
    meta.node_fields.indexOf(f),
  ) as number[];
  const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((f) => meta.edge_fields.indexOf(f)) as number[];
  const { nodes, edges, strings } = snap;
  const count = nodes.length / NF;
  const typeOf = (n: number) => meta.node_types[0][nodes[n * NF + nType!]!]!;
  const nameOf = (n: number) => strings[nodes[n * NF + nName!]!]!;
  const idOf = (n: number) => nodes[n * NF + nId!]!;
  const selfOf = (n: number) => nodes[n * NF + nSelf!]!;
  const firstEdge = new Uint32Array(count + 1);
  for (let n = 0, e = 0; n < count; n++) {
    firstEdge[n] = e;
    e += nodes[n * NF + nEdges!]! * EF;
    firstEdge[n + 1] = e;
  }
  const edgeType = (e: number) => meta.edge_types[0][edges[e + eType!]!]!;
  const edgeName = (e: number) => {
    const type = edgeType(e);
    const v = edges[e + eName!]!;
    return type === "element" || type === "hidden" ? `[${v}]` : strings[v]!;
  };
  const target = (e: number) => edges[e + eTo!]! / NF;
  const matches = (n: number) => (match!.startsWith("type:") ? typeOf(n) === match!.slice(5) : nameOf(n) === match);

  /** Breadth first from the root over strong edges, not through `skip`: the edge that first reached each node. */
  function reach(skip: (n: number) => boolean) {
    const via = new Int32Array(count).fill(-1);
    const from = new Int32Array(count).fill(-1);
    const queue = new Uint32Array(count);
    let head = 0;
    let tail = 0;
    let bytes = 0;
    queue[tail++] = 0;
    from[0] = 0;
    while (head < tail) {
      const n = queue[head++]!;
      bytes += selfOf(n);
      for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += EF) {
        const to = target(e);
        if (edgeType(e) === "weak" || from[to]! >= 0 || skip(to)) continue;
        from[to] = n;
        via[to] = e;
        queue[tail++] = to;
      }
    }
    return { via, from, bytes };
  }
  const { via, from, bytes } = reach(() => false);

  const label = (n: number) => `${typeOf(n)} ${nameOf(n).slice(0, 70).replace(/\s+/g, " ")}`;
  /** A label without what differs between two copies of the same structure (ids, numbers, text). */
  const shape = (n: number) => {
    const name = typeOf(n).endsWith("string") ? "…" : nameOf(n).slice(0, 50);
    return `${typeOf(n)} ${name.replace(/\d+/g, "#").replace(/\s+/g, " ")}`;
  };
  function chain(n: number, shaped: boolean): string[] {
    const out: string[] = [];
    for (let at = n, i = 0; at !== 0 && i < depth; i++) {
      const up = from[at]!;
      const edge = edgeName(via[at]!);
      out.push(
        shaped ? `${/^\[?\d+\]?$/.test(edge) ? "[]" : edge}: ${shape(up)}` : `${edge}: ${label(up)} @${idOf(up)}`,
      );
      at = up;
    }
    return out;
  }
  const found: number[] = [];
  for (let n = 0; n < count; n++) if (matches(n) && from[n]! >= 0) found.push(n);
  const byShape = new Map<string, { n: number; samples: number[] }>();
  for (const n of found) {
    const key = chain(n, true).join("\n      ← ");
    const entry = byShape.get(key) ?? { n: 0, samples: [] };
    entry.n++;
    if (entry.samples.length < samples) entry.samples.push(n);
    byShape.set(key, entry);
  }
  return {
    count,
    bytes,
    found,
    byShape,
    reach,
    nameOf,
    idOf,
    label,
    chain,
    selfOf,
    firstEdge,
    EF,
    edgeType,
    edgeName,
    target,
  };
}

const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
const earlier = since ? load(since) : undefined;
const earlierShapes = earlier ? new Map([...earlier.byShape].map(([k, v]) => [k, v.n])) : undefined;
const earlierSummary = earlier && { found: earlier.found.length, bytes: earlier.bytes };
const later = load(file);
const selfKiB = (later.found.reduce((sum, n) => sum + later.selfOf(n), 0) / 1024).toFixed(0);
console.log(
  `${file}: ${mib(later.bytes)} reachable; ${later.found.length.toLocaleString("en-US")} reachable ${match} (${selfKiB} KiB self)`,
);
if (earlierSummary)
  console.log(
    `${since}: ${mib(earlierSummary.bytes)} reachable; ${earlierSummary.found.toLocaleString("en-US")} reachable ${match}`,
  );
if (cut) {
  const without = later.reach((n) => later.nameOf(n) === cut);
  const left = later.found.filter((n) => without.from[n]! >= 0).length;
  console.log(
    `Through no ${cut}: ${mib(without.bytes)} reachable (${mib(later.bytes - without.bytes)} held only through ${cut}s), ${left} ${match}`,
  );
}
const keys = new Set([...later.byShape.keys(), ...(earlierShapes?.keys() ?? [])]);
const rows = [...keys].map((key) => ({
  key,
  now: later.byShape.get(key)?.n ?? 0,
  before: earlierShapes?.get(key) ?? 0,
}));
rows.sort((a, b) => (earlierShapes ? Math.abs(b.now - b.before) - Math.abs(a.now - a.before) : b.now - a.now));
console.log(
  `\nShortest retainer paths by shape (${earlierShapes ? "most changed first: before → now" : "count"}, the path from the object up):`,
);
for (const { key, now, before } of rows.slice(0, 8))
  console.log(`  ${earlierShapes ? `${before} → ${now}` : `×${now}`}\n      ← ${key}`);
console.log("\nSamples in full (the paths above, in the same order):");
for (const { key } of rows.slice(0, 8))
  for (const n of later.byShape.get(key)?.samples.slice(0, 1) ?? [])
    console.log(`  ${later.label(n)} @${later.idOf(n)}\n      ← ${later.chain(n, false).join("\n      ← ")}`);

for (const id of (option("inspect") ?? "").split(",").filter(Boolean).map(Number)) {
  const { count, idOf, label, firstEdge, EF, edgeType, edgeName, target, selfOf } = later;
  let n = -1;
  for (let i = 0; i < count && n < 0; i++) if (idOf(i) === id) n = i;
  if (n < 0) continue;
  console.log(`\n${label(n)} @${id}, self ${selfOf(n)} B; out:`);
  for (let e = firstEdge[n]!; e < firstEdge[n + 1]! && e < firstEdge[n]! + 40 * EF; e += EF)
    console.log(`    ${edgeType(e)} ${edgeName(e)} → ${label(target(e))} @${idOf(target(e))}`);
  console.log("  in:");
  let shown = 0;
  for (let m = 0; m < count && shown < 20; m++)
    for (let e = firstEdge[m]!; e < firstEdge[m + 1]!; e += EF)
      if (target(e) === n && shown++ < 20) console.log(`    ${edgeType(e)} ${edgeName(e)} ← ${label(m)} @${idOf(m)}`);
}
