// Waiting in tests with a deadline that fails loudly: a wait that runs out throws, naming what it waited for and
// the last thing it saw, instead of handing back a value the test might not look at.

/** A value, shortened for an error message. */
export function shortJson(value: unknown, max = 600): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/**
 * Polls `probe` every 50 ms until `done` accepts its value, and returns that value. At the deadline it throws, naming
 * `what` it waited for (the `done` function's source when not given) and the last value.
 */
export async function pollUntil<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 5_000,
  what?: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `pollUntil: still not there after ${timeoutMs} ms, waiting for ${what ?? done.toString()}; the last value was ${shortJson(value)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
