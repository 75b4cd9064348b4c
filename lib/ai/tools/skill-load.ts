import { tool } from "ai";
import { z } from "zod";
import { SKILL_NAME_PATTERN } from "../../agent/workspace-text.ts";
import { listSkills } from "../../db/skills.ts";
import { DEFAULT_WORKSPACE_ID } from "../../db/workspaces.ts";
import { visibleSkill } from "../../chat/skills.ts";
import { TaskToolError } from "./task-format.ts";
import type { TaskToolContext } from "./task-tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";
import { safeResult, shownLine, workspaceOf } from "./workspace-tool-support.ts";

const skillLoadInput = z.object({ name: z.string().describe('The skill\'s name as listed in <available_skills>, e.g. "weekly-report"') });
const skillLoadSchema = lenientInputSchema(skillLoadInput);
const EXAMPLE = '{"name": "weekly-report"}';

export function skillLoadTool(ctx: TaskToolContext) {
  return tool({
    description: "Load a skill's full instructions (markdown) by its name from <available_skills>, when the skill is relevant to the task; then follow them.",
    inputSchema: skillLoadSchema,
    execute: async (raw) => {
      const toolName = "SkillLoad";
      const call = ctx.nextCallNumber(toolName);
      const { name } = parseToolInput(skillLoadInput, raw, { toolName, call, example: EXAMPLE });
      const workspaceId = await workspaceOf(ctx);
      const skill = SKILL_NAME_PATTERN.test(name) ? await visibleSkill(workspaceId, name) : null;
      if (!skill) {
        const own = await listSkills({ workspaceId });
        const inherited = workspaceId === DEFAULT_WORKSPACE_ID ? [] : await listSkills({ workspaceId: DEFAULT_WORKSPACE_ID });
        const names = [...new Set([...own, ...inherited].map((s) => s.name))].sort();
        const known = names.length ? `Available skills: ${names.slice(0, 50).join(", ")}.` : "This workspace has no skills.";
        const text = `SkillNotFoundError: No skill named ${shownLine(name, 80)}. ${known}`;
        throw new TaskToolError({ type: "SkillNotFoundError", text, args: raw, advice: "Use a name from <available_skills>, or go on without a skill.", toolName, call });
      }
      const origin = skill.workspaceId === workspaceId ? "this workspace" : "the default workspace";
      return safeResult(`Skill ${skill.name} (from ${origin}): ${shownLine(skill.description)}\n\n${skill.instructions}`, toolName, call);
    },
  });
}
