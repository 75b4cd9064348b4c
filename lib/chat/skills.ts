// Skills: a workspace's own; the conversation owner's own (accounts mode), which win over the workspace's; and those of
// the owner's default workspace, seen in every workspace that has none of the same name (lib/db/ownership.ts).
import { bumpWorkspaceRevision } from "../db/workspace-views.ts";
import type { z } from "zod";
import { MAX_SKILLS } from "../agent/workspace-limits.ts";
import { ApiError } from "../api/errors.ts";
import type { createSkillSchema, updateSkillSchema } from "../api/workspace-schemas.ts";
import { createSkill, deleteSkill, getSkill, listSkills, type Skill, updateSkill } from "../db/skills.ts";
import { definitionLevels } from "../db/ownership.ts";
import { isUniqueViolation } from "../db/workspaces.ts";
import { OPERATOR_SKILLS_ORIGIN, type OperatorSkill, operatorSkill, operatorSkills } from "./operator-skills.ts";
import { requireWorkspace } from "./workspaces.ts";

export type { Skill };

/**
 * What holds a set of skills or agents: a workspace, or a user's own level (accounts mode). `label` names it in errors
 * ("workspace ws_1", "your own level").
 */
export type DefinitionHolder = { id: string; label: string };

export const workspaceHolder = (workspaceId: string): DefinitionHolder => ({
  id: workspaceId,
  label: `workspace ${workspaceId}`,
});

export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const missing = (holder: DefinitionHolder, name: string) =>
  new ApiError("not_found", `Skill ${name} does not exist in ${holder.label}.`);

export async function workspaceSkills(workspaceId: string): Promise<Skill[]> {
  await requireWorkspace(workspaceId);
  return listSkills({ workspaceId });
}

export async function readSkill(workspaceId: string, name: string): Promise<Skill> {
  await requireWorkspace(workspaceId);
  return readHeldSkill(workspaceHolder(workspaceId), name);
}

export async function readHeldSkill(holder: DefinitionHolder, name: string): Promise<Skill> {
  const skill = await getSkill({ workspaceId: holder.id, name });
  if (!skill) throw missing(holder, name);
  return skill;
}

export type VisibleSkill = Pick<Skill, "name" | "description" | "instructions"> & {
  origin: "user" | "workspace" | "default" | typeof OPERATOR_SKILLS_ORIGIN;
  /** The operator's skill folder, whose other files the agent may load by path. */
  operator?: OperatorSkill;
};

/** Whose skills a conversation sees: its workspace's, and its owner's levels (null: open and token mode's one person). */
export type DefinitionScope = { workspaceId: string; ownerId: string | null };

/** The containers of a scope's skills and agents, highest precedence first, each with its origin. */
export async function definitionSources(
  scope: DefinitionScope,
): Promise<{ id: string; origin: "user" | "workspace" | "default" }[]> {
  const { user, base } = await definitionLevels(scope);
  return [
    ...(user ? [{ id: user, origin: "user" as const }] : []),
    { id: scope.workspaceId, origin: "workspace" as const },
    ...(base ? [{ id: base, origin: "default" as const }] : []),
  ];
}

/**
 * The skill the agent of a conversation loads by that name. Precedence: the owner's own, the workspace's, the owner's
 * default workspace's, then the operator's folder (HINTLINE_SKILLS_DIR).
 */
export async function visibleSkill(scope: DefinitionScope, name: string): Promise<VisibleSkill | null> {
  for (const source of await definitionSources(scope)) {
    const found = await getSkill({ workspaceId: source.id, name });
    if (found) return { ...found, origin: source.origin };
  }
  const operator = operatorSkill(name);
  return operator ? { ...operator, origin: OPERATOR_SKILLS_ORIGIN, operator } : null;
}

/** Every skill a conversation sees, by name, each from where it comes by the precedence above. */
export async function visibleSkills(scope: DefinitionScope): Promise<Pick<Skill, "name" | "description">[]> {
  const levels = await Promise.all(
    (await definitionSources(scope)).map((source) => listSkills({ workspaceId: source.id })),
  );
  const byName = new Map<string, Pick<Skill, "name" | "description">>();
  for (const skill of [...levels.flat(), ...operatorSkills()])
    if (!byName.has(skill.name)) byName.set(skill.name, { name: skill.name, description: skill.description });
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export async function addSkill(workspaceId: string, input: z.infer<typeof createSkillSchema>): Promise<Skill> {
  await requireWorkspace(workspaceId);
  return addHeldSkill(workspaceHolder(workspaceId), input);
}

/** Adds a skill to a holder known to exist, and marks the change for the conversations that see it. */
export async function addHeldSkill(holder: DefinitionHolder, input: z.infer<typeof createSkillSchema>): Promise<Skill> {
  try {
    const skill = await createSkill({ workspaceId: holder.id, ...input, max: MAX_SKILLS });
    if (skill === "limit")
      throw new ApiError(
        "conflict",
        `${capitalized(holder.label)} already has ${MAX_SKILLS} skills, the limit; delete one first.`,
      );
    await bumpWorkspaceRevision({ workspaceId: holder.id });
    return skill;
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError(
        "conflict",
        `${capitalized(holder.label)} already has a skill named ${input.name}; edit it instead.`,
        "name",
      );
    throw error;
  }
}

export async function editSkill(
  workspaceId: string,
  name: string,
  input: z.infer<typeof updateSkillSchema>,
): Promise<Skill> {
  await requireWorkspace(workspaceId);
  return editHeldSkill(workspaceHolder(workspaceId), name, input);
}

export async function editHeldSkill(
  holder: DefinitionHolder,
  name: string,
  input: z.infer<typeof updateSkillSchema>,
): Promise<Skill> {
  const updated = await updateSkill({ workspaceId: holder.id, name, ...input });
  if (!updated) throw missing(holder, name);
  await bumpWorkspaceRevision({ workspaceId: holder.id });
  return updated;
}

export async function removeSkill(workspaceId: string, name: string): Promise<void> {
  await requireWorkspace(workspaceId);
  await removeHeldSkill(workspaceHolder(workspaceId), name);
}

export async function removeHeldSkill(holder: DefinitionHolder, name: string): Promise<void> {
  if (!(await deleteSkill({ workspaceId: holder.id, name }))) throw missing(holder, name);
  await bumpWorkspaceRevision({ workspaceId: holder.id });
}
