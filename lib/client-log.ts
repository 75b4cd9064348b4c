// The browser's side of "no silent catch": a failure the page survives (a list that could not reload, a refused
// Stop) is written to the console as a warning with its cause. Messages and tokens are never passed to it.
export function warnFailure(what: string): (error: unknown) => void {
  return (error) => console.warn(`[hintline] ${what}:`, error instanceof Error ? error.message : error);
}
