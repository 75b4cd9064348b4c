import { tool } from "ai";
import { z } from "zod";
import { listKnowledge } from "../../db/knowledge.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";
import { textForModel } from "../../agent/tool-result.ts";
import { safeOutput, shownLine, workspaceOf } from "./workspace-tool-support.ts";

const LIST_MAX_FILES = 100;

const knowledgeListInput = z.object({
  prefix: z
    .string()
    .max(255)
    .optional()
    .describe('Only files whose path starts with this, e.g. "notes/" (default: every file)'),
});
const knowledgeListSchema = lenientInputSchema(knowledgeListInput);
const EXAMPLE = '{"prefix": "notes/"}';

export function knowledgeListTool(ctx: ToolContext) {
  return tool({
    description:
      "List the workspace's knowledge files as they are now (path, size, tokens), optionally only those under a path prefix. The list in your system prompt may be older.",
    inputSchema: knowledgeListSchema,
    execute: async (raw) => {
      const toolName = "KnowledgeList";
      const call = ctx.nextCallNumber(toolName);
      const { prefix = "" } = parseToolInput(knowledgeListInput, raw ?? {}, { toolName, call, example: EXAMPLE });
      const files = (await listKnowledge({ workspaceId: await workspaceOf(ctx) })).filter((f) =>
        f.path.startsWith(prefix),
      );
      const where = prefix ? ` under ${shownLine(prefix, 120)}` : "";
      if (!files.length)
        return safeOutput(toolName, call, `No knowledge files${where}.`, { prefix, files: 0, shown: 0 });
      const rows = files
        .slice(0, LIST_MAX_FILES)
        .map(
          (f) =>
            `- ${shownLine(f.path, 260)} (${f.bytes.toLocaleString("en-US")} bytes, ${f.tokens.toLocaleString("en-US")} tokens)`,
        );
      const more =
        files.length > LIST_MAX_FILES
          ? `\n… and ${files.length - LIST_MAX_FILES} more: narrow the list with a longer prefix.`
          : "";
      const head = `${files.length} knowledge file${files.length === 1 ? "" : "s"}${where} (read one with KnowledgeRead):`;
      return safeOutput(toolName, call, `${head}\n${rows.join("\n")}${more}`, {
        prefix,
        files: files.length,
        shown: rows.length,
      });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
