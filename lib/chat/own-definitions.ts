// A user's own skills and agents (accounts mode): the highest level a conversation sees, in every workspace its owner
// chats in (lib/chat/skills.ts has the precedence). They live in a container only their owner reaches, through
// /api/me/skills and /api/me/agents; no workspace list, route or chat shows it (lib/db/ownership.ts).
import type { z } from "zod";
import type { AgentDefinitionData } from "../agent/subagents.ts";
import type { CreateAgentInput, UpdateAgentInput } from "../api/agent-schemas.ts";
import { ApiError } from "../api/errors.ts";
import type { createSkillSchema, updateSkillSchema } from "../api/workspace-schemas.ts";
import type { Viewer } from "../auth/viewer.ts";
import { ensureUserLevel, userLevelId } from "../db/ownership.ts";
import { listSkills, type Skill } from "../db/skills.ts";
import { addHeldAgent, editHeldAgent, heldAgents, removeHeldAgent } from "./agents.ts";
import { addHeldSkill, type DefinitionHolder, editHeldSkill, readHeldSkill, removeHeldSkill } from "./skills.ts";

const LABEL = "your own level";

/** The viewer's own level; in open and token mode there is none (the default workspace's reach every workspace). */
function holderOf(viewer: Viewer): DefinitionHolder {
  if (viewer.kind !== "user") {
    throw new ApiError(
      "not_found",
      "Your own skills and agents exist in accounts mode (HINTLINE_AUTH=accounts); here, the default workspace's skills and agents reach every workspace.",
    );
  }
  return { id: userLevelId(viewer.userId), label: LABEL };
}

/** The holder, made on the viewer's first write to it. */
async function writableHolderOf(viewer: Viewer): Promise<DefinitionHolder> {
  const holder = holderOf(viewer);
  if (viewer.kind === "user") await ensureUserLevel({ userId: viewer.userId });
  return holder;
}

export const ownSkills = (viewer: Viewer): Promise<Skill[]> => listSkills({ workspaceId: holderOf(viewer).id });
export const readOwnSkill = (viewer: Viewer, name: string): Promise<Skill> => readHeldSkill(holderOf(viewer), name);
export const addOwnSkill = async (viewer: Viewer, input: z.infer<typeof createSkillSchema>): Promise<Skill> =>
  addHeldSkill(await writableHolderOf(viewer), input);
export const editOwnSkill = (viewer: Viewer, name: string, input: z.infer<typeof updateSkillSchema>): Promise<Skill> =>
  editHeldSkill(holderOf(viewer), name, input);
export const removeOwnSkill = (viewer: Viewer, name: string): Promise<void> => removeHeldSkill(holderOf(viewer), name);

export type OwnAgent = AgentDefinitionData & { origin: "user" };
const own = (agent: AgentDefinitionData): OwnAgent => ({ ...agent, origin: "user" });
const notOwnAgent = (id: string) => new ApiError("not_found", `Agent ${id} is not one of your own agents.`);

export async function ownAgents(viewer: Viewer): Promise<OwnAgent[]> {
  return (await heldAgents(holderOf(viewer))).map(own);
}

export async function readOwnAgent(viewer: Viewer, id: string): Promise<OwnAgent> {
  const found = (await heldAgents(holderOf(viewer))).find((a) => a.id === id);
  if (!found) throw notOwnAgent(id);
  return own(found);
}

export async function addOwnAgent(viewer: Viewer, input: CreateAgentInput): Promise<OwnAgent> {
  return own(await addHeldAgent(await writableHolderOf(viewer), input));
}

export async function editOwnAgent(viewer: Viewer, id: string, input: UpdateAgentInput): Promise<OwnAgent> {
  const updated = await editHeldAgent(holderOf(viewer), id, input);
  if (!updated) throw notOwnAgent(id);
  return own(updated);
}

export async function removeOwnAgent(viewer: Viewer, id: string): Promise<void> {
  if (!(await removeHeldAgent(holderOf(viewer), id))) throw notOwnAgent(id);
}
