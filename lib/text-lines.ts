// The lines of a text as a person counts them: a newline ends a line, so one that ends the text starts no new line
// ("a\nb\n" is two lines, as an editor and `wc -l` say), and an empty text has none.

/** The lines of `text`, split on every newline convention (\r\n, \n, \r). */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

export function lineCount(text: string): number {
  return splitLines(text).length;
}
