// A Map bounded by its number of entries and by an estimate of the bytes it holds; the least recently used entry goes
// first. Every module-level cache of the server is one of these (or a WeakMap keyed by objects something else holds),
// so what the process holds stays flat however many conversations it serves (bench/memory-bench.ts).
//
// Next.js bundles the API routes and the pages separately, each with its own copy of every module: a cache made with
// `sharedBoundedMap` is one per process (kept on globalThis under its name), not one per bundle.

export type BoundedMapOptions<K, V> = {
  maxEntries: number;
  /** The most bytes the entries may hold, by `sizeOf`'s estimate (no limit by default). */
  maxBytes?: number;
  /** An entry's size in bytes, worked out when it is set (see approximateBytes). */
  sizeOf?: (key: K, value: V) => number;
};

export class BoundedMap<K, V> {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly #sizeOf: (key: K, value: V) => number;
  readonly #entries = new Map<K, { value: V; bytes: number }>();
  #bytes = 0;

  constructor({ maxEntries, maxBytes = Number.POSITIVE_INFINITY, sizeOf = () => 0 }: BoundedMapOptions<K, V>) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.#sizeOf = sizeOf;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The estimated bytes held, by `sizeOf`. */
  get bytes(): number {
    return this.#bytes;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** The value, its recency unchanged. */
  peek(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /**
   * Sets (or re-sets, after the value grew in place) an entry as the most recently used, then evicts the least
   * recently used until both bounds hold. An entry larger than maxBytes on its own is not kept.
   */
  set(key: K, value: V): this {
    this.delete(key);
    const bytes = this.#sizeOf(key, value);
    if (bytes > this.maxBytes) return this;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    while (this.#entries.size > this.maxEntries || this.#bytes > this.maxBytes) {
      this.delete(this.#entries.keys().next().value as K);
    }
    return this;
  }

  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (!entry) return false;
    this.#bytes -= entry.bytes;
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** Keys, least recently used first. */
  keys(): IterableIterator<K> {
    return this.#entries.keys();
  }

  *values(): IterableIterator<V> {
    for (const entry of this.#entries.values()) yield entry.value;
  }
}

const holder = globalThis as { __hintlineCaches?: Map<string, BoundedMap<unknown, unknown>> };

/** The process's one BoundedMap named `name` (made with these options on first use). */
export function sharedBoundedMap<K, V>(name: string, options: BoundedMapOptions<K, V>): BoundedMap<K, V> {
  holder.__hintlineCaches ??= new Map();
  let map = holder.__hintlineCaches.get(name) as BoundedMap<K, V> | undefined;
  if (!map) {
    map = new BoundedMap(options);
    holder.__hintlineCaches.set(name, map as BoundedMap<unknown, unknown>);
  }
  return map;
}

/** Every shared cache's entries and estimated bytes, by name (for /api/metrics and tests). */
export function sharedCacheSizes(): Record<string, { entries: number; bytes: number }> {
  return Object.fromEntries(
    [...(holder.__hintlineCaches ?? [])].map(([name, map]) => [name, { entries: map.size, bytes: map.bytes }]),
  );
}

/**
 * A rough size in bytes of a JSON-like value as V8 holds it: 2 bytes a character of text (strings may be two-byte),
 * 16 a number or boolean, 32 per object or array besides its contents. Depth-first, no cycles expected (at most
 * `maxDepth` levels are counted).
 */
export function approximateBytes(value: unknown, maxDepth = 12): number {
  if (typeof value === "string") return 16 + 2 * value.length;
  if (value === null || typeof value !== "object") return 16;
  if (maxDepth === 0) return 32;
  let total = 32;
  if (Array.isArray(value)) {
    for (const item of value) total += 8 + approximateBytes(item, maxDepth - 1);
    return total;
  }
  for (const [key, item] of Object.entries(value)) total += 8 + key.length + approximateBytes(item, maxDepth - 1);
  return total;
}
