// Work over a long list (every message of a conversation opened cold, or just imported) in slices, letting other
// requests run between them: the work is the same, but no single stretch of it holds the event loop.

const SLICE_MS = 8;
/** Resolves on the event loop's next turn, after the work already queued (a model call being sent, say). */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `work(item, index)` for every item in order, yielding to the event loop whenever a slice of ~8 ms has passed. */
export async function eachYielding<T>(items: readonly T[], work: (item: T, index: number) => void): Promise<void> {
  let sliceStart = performance.now();
  for (let i = 0; i < items.length; i++) {
    work(items[i]!, i);
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}

/** `map` for long lists, in slices as above. */
export async function mapYielding<T, R>(items: readonly T[], map: (item: T) => R): Promise<R[]> {
  const out: R[] = [];
  await eachYielding(items, (item) => out.push(map(item)));
  return out;
}
