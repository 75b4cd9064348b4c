// Text PostgreSQL cannot store. A NUL (U+0000) it stores in neither text nor jsonb (the write fails), SQLite does. So
// that both databases keep the same thing, a person's or an import's JSON holding one is refused naming the field
// (`nulPath`), and what a model writes (its text, tool arguments, and the results built from them) is stored without
// it (`storable`). A lone surrogate (half of a UTF-16 pair, JSON's "\ud83d" alone) fails a jsonb write too; it stands
// for no character, so it becomes U+FFFD, as PostgreSQL's text columns store it (`wellFormed` on every request's
// JSON, `storable` on what a model writes).

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

/** `value` with `fix` applied to its strings and keys (arrays and plain objects walked); the same object when nothing changed. */
function mapStrings<T>(value: T, fix: (text: string) => string): T {
  if (typeof value === "string") return fix(value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const clean = mapStrings(item, fix);
      if (clean !== item) changed = true;
      return clean;
    });
    return (changed ? items : value) as T;
  }
  if (
    typeof value === "object" &&
    value !== null &&
    (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)
  ) {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const clean = mapStrings(item, fix);
      const cleanKey = fix(key);
      if (clean !== item || cleanKey !== key) changed = true;
      return [cleanKey, clean] as const;
    });
    return (changed ? Object.fromEntries(entries) : value) as T;
  }
  return value;
}

const wellFormedText = (text: string) => (text.isWellFormed() ? text : text.toWellFormed());
const storableText = (text: string) => wellFormedText(text.includes(NUL) ? text.replaceAll(NUL, "") : text);

/** `value` with every lone surrogate in its strings and keys replaced by U+FFFD; the same object when it holds none. */
export const wellFormed = <T>(value: T): T => mapStrings(value, wellFormedText);

/** `value` as storage can keep it: NULs removed and lone surrogates replaced by U+FFFD; the same object when clean. */
export const storable = <T>(value: T): T => mapStrings(value, storableText);
