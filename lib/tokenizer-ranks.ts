// gpt-tokenizer ships each encoding's merge table (200,000 tokens) as a JavaScript module of array literals, 2.4 MB of
// source. Compiling it costs a server about 20 MiB more memory for good and 100 ms more than parsing the same array as
// JSON (docs/benchmarks.md, "2026-12-03 (session 19)"). So the table is read from a JSON copy in node_modules/.cache,
// written from the package's own module the first time (and again when the package's version changes). Next.js gives
// each bundle its own copy of this module, so the encodings made from the tables are kept once per process, on
// globalThis.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { GptEncoding } from "gpt-tokenizer/GptEncoding";

export type RankTable = Array<string | number[]>;
export type RankEncoding = "o200k_base" | "cl100k_base";

/** How many tokens each table holds: a cached copy of any other length is not used. */
const TABLE_LENGTH: Record<RankEncoding, number> = { o200k_base: 199_998, cl100k_base: 100_256 };

// Resolved from the project, at run time: the package stays outside the server bundle (next.config.mjs).
const requireFromProject = () => createRequire(path.join(process.cwd(), "package.json"));

export function defaultRanksCacheDir(): string {
  return path.join(process.cwd(), "node_modules", ".cache", "hintline");
}

function isRankTable(value: unknown, encoding: RankEncoding): value is RankTable {
  return (
    Array.isArray(value) &&
    value.length === TABLE_LENGTH[encoding] &&
    typeof value[0] === "string" &&
    typeof value.at(-1) === "string"
  );
}

/** The package's own table (its module compiled). */
export function packageRanks(encoding: RankEncoding): RankTable {
  const table = (requireFromProject()(`gpt-tokenizer/bpeRanks/${encoding}`) as { default: unknown }).default;
  if (!isRankTable(table, encoding))
    throw new Error(`gpt-tokenizer's ${encoding} table is not the expected ${TABLE_LENGTH[encoding]} tokens`);
  return table;
}

export function ranksCacheFile(encoding: RankEncoding, dir = defaultRanksCacheDir()): string {
  const { version } = requireFromProject()("gpt-tokenizer/package.json") as { version: string };
  return path.join(dir, `gpt-tokenizer-${version}-${encoding}.json`);
}

/**
 * The encoding's merge table: from the JSON copy when there is a sound one, else from the package (and the copy is
 * written, atomically, for the next process). A copy that cannot be written costs only the saving: a warning says why.
 */
export function loadRanks(
  encoding: RankEncoding,
  dir = defaultRanksCacheDir(),
): { table: RankTable; from: "cache" | "package" } {
  const file = ranksCacheFile(encoding, dir);
  try {
    const cached: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    if (isRankTable(cached, encoding)) return { table: cached, from: "cache" };
  } catch {
    // No copy yet, or a damaged one: made again below.
  }
  const table = packageRanks(encoding);
  try {
    fs.mkdirSync(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(table));
    fs.renameSync(temporary, file);
  } catch (error) {
    process.emitWarning(
      `the tokenizer's table could not be cached in ${dir}: ${(error as Error).message}`,
      "HintlineWarning",
    );
  }
  return { table, from: "package" };
}

const holder = globalThis as unknown as { __hintlineEncodings?: Map<RankEncoding, GptEncoding> };

/** The process's one encoding of each kind, its table loaded by the first caller. */
export function sharedEncoding(encoding: RankEncoding): GptEncoding {
  holder.__hintlineEncodings ??= new Map();
  const encodings = holder.__hintlineEncodings;
  let api = encodings.get(encoding);
  if (!api) {
    api = GptEncoding.getEncodingApi(encoding, () => loadRanks(encoding).table);
    encodings.set(encoding, api);
  }
  return api;
}
