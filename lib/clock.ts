// The server's clock. Production reads the system time; the evaluation (eval/) sets a simulated one so a scenario
// can jump hours, cross midnight or a DST change between turns. lib/agent/ never reads it: its clock is an argument.
let provider: () => Date = () => new Date();

export function now(): Date {
  return provider();
}

/** Replaces the clock (no argument: the system time again). */
export function setClock(clock?: () => Date): void {
  provider = clock ?? (() => new Date());
}
