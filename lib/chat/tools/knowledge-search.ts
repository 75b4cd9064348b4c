import { tool } from "ai";
import { z } from "zod";
import { searchKnowledgeLines } from "../../db/knowledge.ts";
import { textForModel, ToolError } from "../../agent/tool-result.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";
import { MAX_QUERY_WORDS, queryWords, safeOutput, shownLine, workspaceOf } from "./workspace-tool-support.ts";

export const SEARCH_MAX_LINES = 50;

const knowledgeSearchInput = z.object({ query: z.string().describe("Words to look for in the knowledge files") });
const knowledgeSearchSchema = lenientInputSchema(knowledgeSearchInput);
const EXAMPLE = '{"query": "rate limit"}';

export function knowledgeSearchTool(ctx: ToolContext) {
  return tool({
    description: `Full-text search of the workspace's knowledge files: the matching lines with their path and line number (lines with every word first; when none has them all, lines with any). Up to ${SEARCH_MAX_LINES} lines; read around a hit with KnowledgeRead.`,
    inputSchema: knowledgeSearchSchema,
    execute: async (raw) => {
      const toolName = "KnowledgeSearch";
      const call = ctx.nextCallNumber(toolName);
      const { query } = parseToolInput(knowledgeSearchInput, raw, { toolName, call, example: EXAMPLE });
      const words = queryWords(query);
      if (words.length === 0) {
        const text = "InvalidArgumentsError: The query has no words to look for (letters or digits).";
        throw new ToolError({
          type: "InvalidArgumentsError",
          text,
          args: raw,
          advice: `Send words to look for, like ${EXAMPLE}.`,
          toolName,
          call,
        });
      }
      const workspaceId = await workspaceOf(ctx);
      let anyWord = false;
      let matches = await searchKnowledgeLines({ workspaceId, words, limit: SEARCH_MAX_LINES });
      if (matches.length === 0 && words.length > 1) {
        anyWord = true;
        matches = await searchKnowledgeLines({ workspaceId, words, anyWord, limit: SEARCH_MAX_LINES });
      }
      const asked = `"${words.join(" ")}"${words.length === MAX_QUERY_WORDS ? " (the first 16 words)" : ""}`;
      const found = { words, matches: matches.length, everyWord: !anyWord };
      if (matches.length === 0)
        return safeOutput(toolName, call, `No line of the knowledge files matches ${asked}.`, found);
      const sorted = [...matches].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
      const lines = sorted.map((m) => `${shownLine(m.path, 200)}:${m.line}: ${shownLine(m.text.trim(), 240)}`);
      const how = anyWord ? "no line holds every word; lines with any of them" : "lines with every word";
      const more =
        matches.length === SEARCH_MAX_LINES ? ` (the best ${SEARCH_MAX_LINES}; narrow the query for others)` : "";
      return safeOutput(
        toolName,
        call,
        `${matches.length} matching line${matches.length === 1 ? "" : "s"} for ${asked} (${how})${more}:\n${lines.join("\n")}`,
        found,
      );
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
