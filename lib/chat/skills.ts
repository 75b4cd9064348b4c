// Skills: a workspace's own, and those of "default", which every workspace sees unless it has one of the same name.
import { bumpWorkspaceRevision } from "../db/workspace-views.ts";
import type { z } from "zod";
import { MAX_SKILLS } from "../agent/workspace-limits.ts";
import { ApiError } from "../api/errors.ts";
import type { createSkillSchema, updateSkillSchema } from "../api/workspace-schemas.ts";
import { createSkill, deleteSkill, getSkill, listSkills, type Skill, updateSkill } from "../db/skills.ts";
import { inheritsDefault } from "../db/ownership.ts";
import { DEFAULT_WORKSPACE_ID, isUniqueViolation } from "../db/workspaces.ts";
import { OPERATOR_SKILLS_ORIGIN, type OperatorSkill, operatorSkill, operatorSkills } from "./operator-skills.ts";
import { requireWorkspace } from "./workspaces.ts";

export type { Skill };

const missing = (workspaceId: string, name: string) => new ApiError("not_found", `Skill ${name} does not exist in workspace ${workspaceId}.`);

export async function workspaceSkills(workspaceId: string): Promise<Skill[]> {
  await requireWorkspace(workspaceId);
  return listSkills({ workspaceId });
}

export async function readSkill(workspaceId: string, name: string): Promise<Skill> {
  await requireWorkspace(workspaceId);
  const skill = await getSkill({ workspaceId, name });
  if (!skill) throw missing(workspaceId, name);
  return skill;
}

export type VisibleSkill = Pick<Skill, "name" | "description" | "instructions"> & {
  origin: "workspace" | "default" | typeof OPERATOR_SKILLS_ORIGIN;
  /** The operator's skill folder, whose other files the agent may load by path. */
  operator?: OperatorSkill;
};

/**
 * The skill the agent of a conversation in `workspaceId` loads by that name. Precedence: the workspace's own, then
 * default's, then the operator's folder (HINTLINE_SKILLS_DIR).
 */
export async function visibleSkill(workspaceId: string, name: string): Promise<VisibleSkill | null> {
  const own = await getSkill({ workspaceId, name });
  if (own) return { ...own, origin: "workspace" };
  const shared = (await inheritsDefault({ workspaceId })) ? await getSkill({ workspaceId: DEFAULT_WORKSPACE_ID, name }) : null;
  if (shared) return { ...shared, origin: "default" };
  const operator = operatorSkill(name);
  return operator ? { ...operator, origin: OPERATOR_SKILLS_ORIGIN, operator } : null;
}

/** Every skill a conversation in `workspaceId` sees, by name, each from where it comes by the precedence above. */
export async function visibleSkills(workspaceId: string): Promise<Pick<Skill, "name" | "description">[]> {
  const [own, shared] = await Promise.all([
    listSkills({ workspaceId }),
    inheritsDefault({ workspaceId }).then((inherits) => (inherits ? listSkills({ workspaceId: DEFAULT_WORKSPACE_ID }) : [])),
  ]);
  const byName = new Map<string, Pick<Skill, "name" | "description">>();
  for (const skill of [...own, ...shared, ...operatorSkills()]) if (!byName.has(skill.name)) byName.set(skill.name, { name: skill.name, description: skill.description });
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export async function addSkill(workspaceId: string, input: z.infer<typeof createSkillSchema>): Promise<Skill> {
  await requireWorkspace(workspaceId);
  try {
    const skill = await createSkill({ workspaceId, ...input, max: MAX_SKILLS });
    if (skill === "limit") throw new ApiError("conflict", `Workspace ${workspaceId} already has ${MAX_SKILLS} skills, the limit; delete one first.`);
    await bumpWorkspaceRevision({ workspaceId });
    return skill;
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("conflict", `Workspace ${workspaceId} already has a skill named ${input.name}; edit it instead.`, "name");
    throw error;
  }
}

export async function editSkill(workspaceId: string, name: string, input: z.infer<typeof updateSkillSchema>): Promise<Skill> {
  await requireWorkspace(workspaceId);
  const updated = await updateSkill({ workspaceId, name, ...input });
  if (!updated) throw missing(workspaceId, name);
  await bumpWorkspaceRevision({ workspaceId });
  return updated;
}

export async function removeSkill(workspaceId: string, name: string): Promise<void> {
  await requireWorkspace(workspaceId);
  if (!(await deleteSkill({ workspaceId, name }))) throw missing(workspaceId, name);
  await bumpWorkspaceRevision({ workspaceId });
}
