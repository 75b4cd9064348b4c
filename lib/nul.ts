// NUL (U+0000): PostgreSQL stores it in neither text nor jsonb (the write fails), SQLite does. So that both databases
// keep the same thing, a person's or an import's JSON holding one is refused naming the field (`nulPath`), and what a
// model writes (its text, tool arguments, and the results built from them) is stored without it (`withoutNul`).

const NUL = "\u0000";

/** The path ("conversation.messages.3.parts.0.text") of the first string or key in `value` holding a NUL, or null. */
export function nulPath(value: unknown, path: readonly (string | number)[] = []): string | null {
  if (typeof value === "string") return value.includes(NUL) ? path.join(".") || "body" : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], [...path, i]);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes(NUL)) return [...path, key.replaceAll(NUL, "\\u0000")].join(".");
      const found = nulPath(item, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}

/** `value` with every NUL removed from its strings and keys; the same object when it holds none. */
export function withoutNul<T>(value: T): T {
  if (typeof value === "string") return (value.includes(NUL) ? value.replaceAll(NUL, "") : value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const clean = withoutNul(item);
      if (clean !== item) changed = true;
      return clean;
    });
    return (changed ? items : value) as T;
  }
  if (typeof value === "object" && value !== null && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const clean = withoutNul(item);
      const cleanKey = key.includes(NUL) ? key.replaceAll(NUL, "") : key;
      if (clean !== item || cleanKey !== key) changed = true;
      return [cleanKey, clean] as const;
    });
    return (changed ? Object.fromEntries(entries) : value) as T;
  }
  return value;
}
