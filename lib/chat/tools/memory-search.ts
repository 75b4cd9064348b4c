import { tool } from "ai";
import { z } from "zod";
import { listMemory } from "../../db/memory.ts";
import { textForModel, ToolError } from "../../agent/tool-result.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";
import { queryWords, safeOutput, shownLine, workspaceOf } from "./workspace-tool-support.ts";

const memorySearchInput = z.object({ query: z.string().describe("Words to look for in the memory entries") });
const memorySearchSchema = lenientInputSchema(memorySearchInput);
const EXAMPLE = '{"query": "units"}';
const SHOWN = 50;

export function memorySearchTool(ctx: ToolContext) {
  return tool({
    description:
      "Search the workspace's memory entries (facts, preferences and decisions kept across conversations). Use it before answering about past decisions, dates, people or preferences, above all when the memory in the system prompt was cut.",
    inputSchema: memorySearchSchema,
    execute: async (raw) => {
      const toolName = "MemorySearch";
      const call = ctx.nextCallNumber(toolName);
      const { query } = parseToolInput(memorySearchInput, raw, { toolName, call, example: EXAMPLE });
      const words = queryWords(query);
      if (words.length === 0) {
        const text = "InvalidArgumentsError: The query has no words to look for.";
        throw new ToolError({
          type: "InvalidArgumentsError",
          text,
          args: raw,
          advice: `Send words to look for, like ${EXAMPLE}.`,
          toolName,
          call,
        });
      }
      // A workspace holds at most MAX_MEMORY_ENTRIES short lines: scoring them here is bounded.
      const entries = await listMemory({ workspaceId: await workspaceOf(ctx) });
      const scored = entries
        .map((entry, index) => {
          // A query word matches an entry word it begins ("unit" finds "units"), not any substring.
          const own = queryWords(entry.text);
          return { entry, index, score: words.filter((w) => own.some((o) => o.startsWith(w))).length };
        })
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score || b.index - a.index);
      if (scored.length === 0) {
        const text = `No memory entry matches "${shownLine(query, 200)}" (the memory holds ${entries.length} entries).`;
        return safeOutput(toolName, call, text, { matches: 0, shown: 0, entries: entries.length });
      }
      const shown = scored.slice(0, SHOWN);
      const lines = shown.map(
        ({ entry }) => `- [${entry.id}] (${entry.author}, ${entry.createdAt.slice(0, 10)}) ${shownLine(entry.text)}`,
      );
      const more =
        scored.length > SHOWN ? `\n(${scored.length - SHOWN} more matching entries not shown: narrow the query.)` : "";
      const header = `${scored.length} memory ${scored.length === 1 ? "entry matches" : "entries match"} "${shownLine(query, 200)}", best first:`;
      return safeOutput(toolName, call, `${header}\n${lines.join("\n")}${more}`, {
        matches: scored.length,
        shown: shown.length,
        entries: entries.length,
      });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
