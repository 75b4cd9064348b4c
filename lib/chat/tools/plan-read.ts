import { tool } from "ai";
import { z } from "zod";
import { currentPlan } from "../../db/plans.ts";
import { numberedLines, READ_DEFAULT_LINES, READ_MAX_LINES, rangeOf, splitLines } from "./numbered-lines.ts";
import { textForModel } from "../../agent/tool-result.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";
import { safeOutput } from "./workspace-tool-support.ts";

const planReadInput = z.object({
  offset: z.number().int().min(1).optional().describe("The first line to read (1-based; default 1)"),
  limit: z
    .number()
    .int()
    .min(1)
    .max(READ_MAX_LINES)
    .optional()
    .describe(`How many lines to read (default ${READ_DEFAULT_LINES})`),
});
const planReadSchema = lenientInputSchema(planReadInput);
const EXAMPLE = '{"offset": 1, "limit": 200}';

export function planReadTool(ctx: ToolContext) {
  return tool({
    description:
      "Read this conversation's current plan (the newest version, as the person may have edited it), a range of lines at a time, numbered. Works in PLAN and BUILD mode.",
    inputSchema: planReadSchema,
    execute: async (raw) => {
      const toolName = "PlanRead";
      const call = ctx.nextCallNumber(toolName);
      const input = parseToolInput(planReadInput, raw ?? {}, { toolName, call, example: EXAMPLE });
      const plan = await currentPlan({ conversationId: ctx.conversationId });
      if (!plan)
        return safeOutput(toolName, call, "No plan has been written yet (PlanWrite writes one).", { version: null });
      const window = numberedLines(splitLines(plan.content), input.offset, input.limit);
      const by = plan.author === "person" ? "edited by the person" : "written by you";
      const header = `Plan version ${plan.version} (${by}, ${plan.createdAt}; ${plan.content.length.toLocaleString("en-US")} characters, ${window.total} lines)`;
      return safeOutput(toolName, call, `${header}, ${window.text}`, { version: plan.version, lines: rangeOf(window) });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
