import { tool } from "ai";
import { z } from "zod";
import { knowledgePathProblem, normalizeKnowledgePath } from "../../agent/workspace-text.ts";
import { getKnowledgeFile, listKnowledge } from "../../db/knowledge.ts";
import { numberedLines, READ_DEFAULT_LINES, READ_MAX_LINES, rangeOf, splitLines } from "./numbered-lines.ts";
import { textForModel, ToolError } from "../../agent/tool-result.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";
import { safeOutput, shownLine, workspaceOf } from "./workspace-tool-support.ts";

const knowledgeReadInput = z.object({
  path: z.string().describe('The file\'s path in the knowledge folder, e.g. "notes/api.md"'),
  offset: z.number().int().min(1).optional().describe("The first line to read (1-based; default 1)"),
  limit: z
    .number()
    .int()
    .min(1)
    .max(READ_MAX_LINES)
    .optional()
    .describe(`How many lines to read (default ${READ_DEFAULT_LINES})`),
});
const knowledgeReadSchema = lenientInputSchema(knowledgeReadInput);
const EXAMPLE = '{"path": "notes/api.md", "offset": 1, "limit": 200}';

export function knowledgeReadTool(ctx: ToolContext) {
  return tool({
    description:
      "Read a file of the workspace's knowledge folder (the authoritative source for the domain), a range of lines at a time, numbered. Read only the files you need.",
    inputSchema: knowledgeReadSchema,
    execute: async (raw) => {
      const toolName = "KnowledgeRead";
      const call = ctx.nextCallNumber(toolName);
      const parsed = parseToolInput(knowledgeReadInput, raw, { toolName, call, example: EXAMPLE });
      const input = { ...parsed, path: normalizeKnowledgePath(parsed.path) };
      const problem = knowledgePathProblem(input.path);
      if (problem) {
        const text = `InvalidArgumentsError: The path ${problem}.`;
        throw new ToolError({
          type: "InvalidArgumentsError",
          text,
          args: raw,
          advice: `Use a path from the knowledge list, like ${EXAMPLE}.`,
          toolName,
          call,
        });
      }
      const workspaceId = await workspaceOf(ctx);
      const file = await getKnowledgeFile({ workspaceId, path: input.path });
      if (!file) {
        const paths = (await listKnowledge({ workspaceId })).map((f) => f.path);
        const known = paths.length
          ? `Files: ${paths
              .slice(0, 30)
              .map((p) => shownLine(p, 120))
              .join(", ")}${paths.length > 30 ? `, … (${paths.length} in all)` : ""}.`
          : "The knowledge folder is empty.";
        const text = `KnowledgeFileNotFoundError: No knowledge file ${shownLine(input.path, 120)}. ${known}`;
        throw new ToolError({
          type: "KnowledgeFileNotFoundError",
          text,
          args: raw,
          advice: "Use one of the listed paths, or KnowledgeSearch to find the file.",
          toolName,
          call,
        });
      }
      const lines = splitLines(file.content);
      const first = input.offset ?? 1;
      const header = `${file.path} (${file.bytes.toLocaleString("en-US")} bytes, ${lines.length} lines)`;
      const read = { path: file.path, bytes: file.bytes };
      if (first > lines.length) {
        return safeOutput(toolName, call, `${header}: offset ${first} is past the last line (${lines.length}).`, {
          ...read,
          lines: { first, last: first - 1, total: lines.length },
        });
      }
      const window = numberedLines(lines, first, input.limit ?? READ_DEFAULT_LINES);
      return safeOutput(toolName, call, `${header}, ${window.text}`, { ...read, lines: rangeOf(window) });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
