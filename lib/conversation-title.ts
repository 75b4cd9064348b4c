// A conversation's title from its first message: one line, at most 60 characters.
export const DEFAULT_TITLE = "New chat";

export function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || DEFAULT_TITLE;
}
