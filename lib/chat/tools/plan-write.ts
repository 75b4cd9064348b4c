import { tool } from "ai";
import { z } from "zod";
import { PLAN_MAX_CHARS, PLAN_VERSIONS_KEPT } from "../../agent/plan-mode.ts";
import { savePlanVersion } from "../../db/plans.ts";
import { textForModel, ToolError, toolOutput } from "../../agent/tool-result.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";

const planWriteInput = z.object({
  content: z
    .string()
    .describe("The whole plan as markdown (it replaces the previous version); keep the steps as a list"),
});
const planWriteSchema = lenientInputSchema(planWriteInput);
const EXAMPLE = '{"content": "# Plan\\n\\n- Outline the post\\n- Write the draft"}';
const count = (n: number) => n.toLocaleString("en-US");

export function planWriteTool(ctx: ToolContext) {
  return tool({
    description:
      "Write this conversation's plan (markdown), shown to the person in the side panel; each call stores a new version that replaces the plan. Works in PLAN and BUILD mode.",
    inputSchema: planWriteSchema,
    execute: async (raw) => {
      const toolName = "PlanWrite";
      const call = ctx.nextCallNumber(toolName);
      const { content } = parseToolInput(planWriteInput, raw, { toolName, call, example: EXAMPLE });
      if (!content.trim()) {
        const advice = "Send the whole plan as markdown in content.";
        throw new ToolError({
          type: "InvalidArgumentsError",
          text: "InvalidArgumentsError: The plan is empty.",
          args: raw,
          advice,
          toolName,
          call,
        });
      }
      if (content.length > PLAN_MAX_CHARS) {
        throw new ToolError({
          type: "PlanTooLargeError",
          text: `PlanTooLargeError: The plan is ${count(content.length)} characters, over the limit of ${count(PLAN_MAX_CHARS)}; it was not saved.`,
          args: raw,
          advice: `Write a shorter plan (at most ${count(PLAN_MAX_CHARS)} characters): keep the steps and leave details for the tasks.`,
          toolName,
          call,
        });
      }
      const saved = await savePlanVersion({
        conversationId: ctx.conversationId,
        content,
        author: "agent",
        keep: PLAN_VERSIONS_KEPT,
      });
      if (!saved) throw new Error("The conversation no longer exists.");
      await ctx.onPlanChanged?.({
        content: saved.content,
        updatedAt: saved.createdAt,
        version: saved.version,
        author: saved.author,
      });
      const mode = (await ctx.mode?.()) ?? "build";
      const next =
        mode === "plan"
          ? "The person sees it in the side panel; they may edit it, and they switch to BUILD mode when they approve it."
          : "The person sees it in the side panel.";
      const text = `Plan saved (version ${saved.version}, ${count(content.length)} characters). ${next}`;
      return toolOutput(toolName, call, text, { version: saved.version, chars: content.length });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
