// Pure: the figures a tool row's summary shows, read from a result stored as its text. Before Hintline's tools
// returned data a result was only the text the model read, and imports and older databases still hold such results;
// a result with data (lib/tool-output.ts) is read from its fields instead, never from its text.

const count = (match: RegExpExecArray | null) => (match ? Number(match[1]) : undefined);

/** Per tool, its fields as lib/tool-output.ts names them, from the text it answered before it returned data. */
const READERS: Record<string, (text: string) => Record<string, unknown>> = {
  TaskCreate: (text) => {
    const created = /^Task \(id=(\d+)\) created successfully: (.*)/.exec(text);
    return created ? { taskId: created[1], subject: created[2] } : {};
  },
  TaskUpdate: (text) =>
    text.startsWith("No updates")
      ? { result: "unchanged" }
      : { changed: /^Update task \(id=\d+\) ([^.]*)\./.exec(text)?.[1]?.split(", ") },
  TaskList: (text) => ({
    shown: text.startsWith("No tasks") ? 0 : text.split("\n").filter((line) => /^\d+ \[/.test(line)).length,
  }),
  PlanWrite: (text) => ({ version: count(/^Plan saved \(version (\d+)/.exec(text)) }),
  MemorySearch: (text) => ({
    matches: text.startsWith("No memory entry") ? 0 : count(/^(\d+) memory entr/.exec(text)),
  }),
  KnowledgeRead: (text) => {
    const lines = /, lines (\d+)–(\d+):/.exec(text);
    return lines ? { lines: { first: Number(lines[1]), last: Number(lines[2]) } } : {};
  },
  KnowledgeSearch: (text) => ({ matches: text.startsWith("No line") ? 0 : count(/^(\d+) matching lines?/.exec(text)) }),
};

/** The fields of a result of `toolName` stored as its text (none for a tool whose summary reads none). */
export function fieldsOfText(toolName: string, text: string): Record<string, unknown> {
  return Object.hasOwn(READERS, toolName) ? READERS[toolName]!(text) : {};
}
