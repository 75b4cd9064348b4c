import { tool } from "ai";
import { z } from "zod";
import { getConversation } from "../../db/conversations.ts";
import { getWorkspace } from "../../db/workspaces.ts";
import { numberedLines, READ_DEFAULT_LINES, READ_MAX_LINES, rangeOf, splitLines } from "./numbered-lines.ts";
import { textForModel } from "../../agent/tool-result.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";
import { safeOutput, shownLine, workspaceOf } from "./workspace-tool-support.ts";

const instructionsReadInput = z.object({
  offset: z.number().int().min(1).optional().describe("The first line to read (1-based; default 1)"),
  limit: z
    .number()
    .int()
    .min(1)
    .max(READ_MAX_LINES)
    .optional()
    .describe(`How many lines to read (default ${READ_DEFAULT_LINES})`),
});
const instructionsReadSchema = lenientInputSchema(instructionsReadInput);
const EXAMPLE = '{"offset": 1, "limit": 200}';

/** The conversation's own instructions (its prompt settings), when the person set any. */
function conversationInstructions(settings: unknown): string {
  const prompt = (settings as { prompt?: { instructions?: unknown } } | null)?.prompt;
  return typeof prompt?.instructions === "string" ? prompt.instructions.trim() : "";
}

export function instructionsReadTool(ctx: ToolContext) {
  return tool({
    description:
      "Read the workspace's standing instructions as they are now (your system prompt holds them as they were when it was written), a range of lines at a time, numbered.",
    inputSchema: instructionsReadSchema,
    execute: async (raw) => {
      const toolName = "InstructionsRead";
      const call = ctx.nextCallNumber(toolName);
      const input = parseToolInput(instructionsReadInput, raw ?? {}, { toolName, call, example: EXAMPLE });
      const [workspace, conversation] = await Promise.all([
        getWorkspace({ id: await workspaceOf(ctx) }),
        getConversation({ id: ctx.conversationId }),
      ]);
      const own = conversationInstructions(conversation?.settings);
      const ownNote = own
        ? ` This conversation also has instructions of its own (${own.length.toLocaleString("en-US")} characters, in your system prompt).`
        : "";
      const text = workspace?.instructions.trim() ?? "";
      if (!text) return safeOutput(toolName, call, `The workspace has no instructions.${ownNote}`, { chars: 0 });
      const window = numberedLines(splitLines(text), input.offset, input.limit);
      const header = `Workspace instructions of "${shownLine(workspace?.name ?? "", 100)}" (${text.length.toLocaleString("en-US")} characters, ${window.total} lines)`;
      return safeOutput(toolName, call, `${header}, ${window.text}${ownNote ? `\n${ownNote.trim()}` : ""}`, {
        chars: text.length,
        lines: rangeOf(window),
      });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
