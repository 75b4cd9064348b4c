import { tool } from "ai";
import { z } from "zod";
import { SKILL_NAME_PATTERN } from "../../agent/workspace-text.ts";
import { readSkillResource, skillResources } from "../operator-skills.ts";
import { type VisibleSkill, visibleSkill, visibleSkills } from "../skills.ts";
import { numberedLines, READ_MAX_LINES, rangeOf, splitLines } from "./numbered-lines.ts";
import { textForModel, ToolError, TOOL_RESULT_MAX_CHARS } from "../../agent/tool-result.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";
import { definitionScopeOf, safeOutput, shownLine } from "./workspace-tool-support.ts";

const skillLoadInput = z.object({
  name: z.string().describe('The skill\'s name as listed in <available_skills>, e.g. "weekly-report"'),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("For long instructions: the first line to read (1-based); the result says where to go on"),
  path: z
    .string()
    .max(255)
    .optional()
    .describe("A resource file of the skill to read instead of its instructions, as the instructions name it"),
});
const skillLoadSchema = lenientInputSchema(skillLoadInput);
const EXAMPLE = '{"name": "weekly-report"}';
// Instructions up to this size come whole; longer ones come as numbered lines, a window at a time.
const WHOLE_MAX_CHARS = TOOL_RESULT_MAX_CHARS - 800;

const ORIGIN: Record<VisibleSkill["origin"], string> = {
  user: "the person's own skills",
  workspace: "this workspace",
  default: "the default workspace",
  operator: "the server's skills folder",
};

export function skillLoadTool(ctx: ToolContext) {
  return tool({
    description:
      "Load a skill's full instructions (markdown) by its name from <available_skills>, when the skill is relevant to the task; then follow them. Long instructions come a window at a time (offset); a skill's resource files load by path.",
    inputSchema: skillLoadSchema,
    execute: async (raw) => {
      const toolName = "SkillLoad";
      const call = ctx.nextCallNumber(toolName);
      const input = parseToolInput(skillLoadInput, raw, { toolName, call, example: EXAMPLE });
      const scope = await definitionScopeOf(ctx);
      const skill = SKILL_NAME_PATTERN.test(input.name) ? await visibleSkill(scope, input.name) : null;
      if (!skill) {
        const names = (await visibleSkills(scope)).map((s) => s.name);
        const known = names.length
          ? `Available skills: ${names.slice(0, 50).join(", ")}.`
          : "This workspace has no skills.";
        const text = `SkillNotFoundError: No skill named ${shownLine(input.name, 80)}. ${known}`;
        throw new ToolError({
          type: "SkillNotFoundError",
          text,
          args: raw,
          advice: "Use a name from <available_skills>, or go on without a skill.",
          toolName,
          call,
        });
      }
      const head = `Skill ${skill.name} (from ${ORIGIN[skill.origin]})`;
      const loaded = { name: skill.name, origin: skill.origin };
      if (input.path !== undefined) {
        const read = skill.operator
          ? readSkillResource(skill.operator, input.path)
          : { problem: "does not exist: this skill has no resource files", files: [] };
        if ("problem" in read) {
          const listed = read.files.length
            ? ` Its files: ${read.files
                .slice(0, 30)
                .map((f) => shownLine(f, 120))
                .join(", ")}.`
            : "";
          const text = `SkillResourceNotFoundError: The resource ${shownLine(input.path, 120)} ${read.problem}.${listed}`;
          throw new ToolError({
            type: "SkillResourceNotFoundError",
            text,
            args: raw,
            advice: "Use a path the skill's instructions name, relative to the skill.",
            toolName,
            call,
          });
        }
        const window = numberedLines(splitLines(read.text), input.offset, READ_MAX_LINES);
        const text = `${head}, resource ${shownLine(input.path, 120)} (${read.bytes} bytes, ${window.total} lines), ${window.text}`;
        return safeOutput(toolName, call, text, { ...loaded, path: input.path, lines: rangeOf(window) });
      }
      const resources = skill.operator ? skillResources(skill.operator, 30) : [];
      const files = resources.length
        ? `\nResource files (load one with SkillLoad and its path): ${resources.join(", ")}`
        : "";
      if (input.offset === undefined && skill.instructions.length <= WHOLE_MAX_CHARS) {
        return safeOutput(
          toolName,
          call,
          `${head}: ${shownLine(skill.description)}\n\n${skill.instructions}${files}`,
          loaded,
        );
      }
      const window = numberedLines(splitLines(skill.instructions), input.offset, READ_MAX_LINES);
      const text = `${head}: ${shownLine(skill.description)}${files}\nInstructions (${skill.instructions.length} characters, ${window.total} lines), ${window.text}`;
      return safeOutput(toolName, call, text, { ...loaded, lines: rangeOf(window) });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
