// Pure: a window of a long text as numbered lines that fits one tool result, with where to go on. KnowledgeRead,
// PlanRead, InstructionsRead and SkillLoad page the same way, so the agent learns one way to read anything long.
import type { LineRange } from "../../tool-output.ts";
import { TOOL_RESULT_MAX_CHARS } from "../../agent/tool-result.ts";

export const READ_DEFAULT_LINES = 200;
export const READ_MAX_LINES = 1_000;
const LINE_MAX_CHARS = 1_000;
// Room for the header, the continuation note and the call counter within the result cap.
const BUDGET = TOOL_RESULT_MAX_CHARS - 600;

export type LineWindow = { text: string; first: number; last: number; total: number };

/** A window's range, as a result's data holds it. */
export const rangeOf = ({ first, last, total }: LineWindow): LineRange => ({ first, last, total });

export { splitLines } from "../../text-lines.ts";

/**
 * Lines `offset`… (1-based) of `lines`, at most `limit` of them and no more than fit a result; each numbered, an
 * over-long line cut with a note, and a closing note with the offset to continue from when lines are left.
 */
export function numberedLines(lines: readonly string[], offset = 1, limit = READ_DEFAULT_LINES): LineWindow {
  const total = lines.length;
  if (offset > total)
    return { text: `offset ${offset} is past the last line (${total}).`, first: offset, last: offset - 1, total };
  const stop = Math.min(total, offset - 1 + limit);
  const shown: string[] = [];
  let used = 0;
  let line = offset;
  for (; line <= stop; line++) {
    const text = lines[line - 1]!;
    const cut =
      text.length > LINE_MAX_CHARS ? `${text.slice(0, LINE_MAX_CHARS)}… (line cut: ${text.length} characters)` : text;
    const row = `${String(line).padStart(6)}\t${cut}`;
    if (used + row.length + 1 > BUDGET && shown.length > 0) break;
    shown.push(row);
    used += row.length + 1;
  }
  const last = line - 1;
  const rest = last < total ? `\n(Lines ${last + 1}–${total} not shown: continue with offset ${last + 1}.)` : "";
  return { text: `lines ${offset}–${last}:\n${shown.join("\n")}${rest}`, first: offset, last, total };
}
