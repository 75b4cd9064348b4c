// Agent definitions: the conversation owner's own (accounts mode), a workspace's own, the owner's default workspace's
// (visible in every workspace unless it has one of the same id), and the built-in general-purpose agent
// (lib/agent/subagents.ts). The same levels as skills (lib/chat/skills.ts).
import {
  type AgentDefinitionData,
  GENERAL_PURPOSE_AGENT_ID,
  type VisibleAgent,
  visibleAgents,
} from "../agent/subagents.ts";
import { MAX_AGENTS } from "../agent/workspace-limits.ts";
import type { CreateAgentInput, UpdateAgentInput } from "../api/agent-schemas.ts";
import { ApiError } from "../api/errors.ts";
import {
  type AgentDefinition,
  createAgentDefinition,
  deleteAgentDefinition,
  listAgentDefinitions,
  updateAgentDefinition,
} from "../db/agents.ts";
import { bumpWorkspaceRevision } from "../db/workspace-views.ts";
import { isUniqueViolation } from "../db/workspaces.ts";
import { checkModelChoice } from "./conversation-model.ts";
import {
  capitalized,
  type DefinitionHolder,
  type DefinitionScope,
  definitionSources,
  workspaceHolder,
} from "./skills.ts";
import { requireWorkspace } from "./workspaces.ts";

export type { AgentDefinition, VisibleAgent };

const dataOf = ({ id, description, instructions, tools, model, maxSteps }: AgentDefinition): AgentDefinitionData => ({
  id,
  description,
  instructions,
  ...(tools ? { tools } : {}),
  ...(model ? { model } : {}),
  ...(maxSteps ? { maxSteps } : {}),
});

/** Every agent a conversation in the workspace sees (the viewer's own, its own, default's, the built-in), by id. */
export async function workspaceAgents(scope: DefinitionScope): Promise<VisibleAgent[]> {
  await requireWorkspace(scope.workspaceId);
  return agentsVisibleIn(scope);
}

/** As workspaceAgents, without checking the workspace (a conversation's own is known to exist). */
export async function agentsVisibleIn(scope: DefinitionScope): Promise<VisibleAgent[]> {
  const sources = await definitionSources(scope);
  const levels = await Promise.all(
    sources.map(async ({ id, origin }) => ({
      origin,
      agents: (await listAgentDefinitions({ workspaceId: id })).map(dataOf),
    })),
  );
  return visibleAgents(levels);
}

/** The agent a conversation spawns by that id, or null. */
export async function visibleAgent(scope: DefinitionScope, id: string): Promise<VisibleAgent | null> {
  return (await agentsVisibleIn(scope)).find((a) => a.id === id) ?? null;
}

export async function readAgent(scope: DefinitionScope, id: string): Promise<VisibleAgent> {
  await requireWorkspace(scope.workspaceId);
  const agent = await visibleAgent(scope, id);
  if (!agent)
    throw new ApiError("not_found", `Agent ${id} does not exist in workspace ${scope.workspaceId} (nor in default).`);
  return agent;
}

/** 404 for an id the workspace does not define itself, saying where the one it sees comes from. */
async function notOwn(scope: DefinitionScope, id: string): Promise<ApiError> {
  const { workspaceId } = scope;
  const seen = await visibleAgent(scope, id);
  const where =
    seen?.origin === "built-in"
      ? `${id} is built in`
      : seen?.origin === "default"
        ? `${id} comes from the default workspace (edit it there)`
        : seen?.origin === "user"
          ? `${id} is one of your own agents (edit it under your own agents, /api/me/agents)`
          : `Agent ${id} does not exist in workspace ${workspaceId}`;
  const override = seen ? `; create one with the id ${id} in this workspace to replace it here` : "";
  return new ApiError("not_found", `${where}${override}.`);
}

export async function addAgent(workspaceId: string, input: CreateAgentInput): Promise<VisibleAgent> {
  await requireWorkspace(workspaceId);
  return { ...(await addHeldAgent(workspaceHolder(workspaceId), input)), origin: "workspace" };
}

/** Adds an agent to a holder known to exist, and marks the change for the conversations that see it. */
export async function addHeldAgent(holder: DefinitionHolder, input: CreateAgentInput): Promise<AgentDefinitionData> {
  const model = input.model === undefined ? undefined : checkModelChoice(input.model);
  try {
    const created = await createAgentDefinition({ workspaceId: holder.id, ...input, model, max: MAX_AGENTS });
    if (created === "limit")
      throw new ApiError(
        "conflict",
        `${capitalized(holder.label)} already has ${MAX_AGENTS} agents, the limit; delete one first.`,
      );
    await bumpWorkspaceRevision({ workspaceId: holder.id });
    return dataOf(created);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError(
        "conflict",
        `${capitalized(holder.label)} already has an agent with the id ${input.id}; edit it instead.`,
        "id",
      );
    throw error;
  }
}

/** The agents a holder defines itself (no other level), by id. */
export async function heldAgents(holder: DefinitionHolder): Promise<AgentDefinitionData[]> {
  return (await listAgentDefinitions({ workspaceId: holder.id })).map(dataOf);
}

/** `scope`: the workspace and the viewer, whose levels the 404 names when the id comes from one of them. */
export async function editAgent(scope: DefinitionScope, id: string, input: UpdateAgentInput): Promise<VisibleAgent> {
  await requireWorkspace(scope.workspaceId);
  const updated = await editHeldAgent(workspaceHolder(scope.workspaceId), id, input);
  if (!updated) throw await notOwn(scope, id);
  return { ...updated, origin: "workspace" };
}

/** null: the holder has no agent of that id. */
export async function editHeldAgent(
  holder: DefinitionHolder,
  id: string,
  input: UpdateAgentInput,
): Promise<AgentDefinitionData | null> {
  const model = input.model === undefined || input.model === null ? input.model : checkModelChoice(input.model);
  const updated = await updateAgentDefinition({ workspaceId: holder.id, id, ...input, model });
  if (!updated) return null;
  await bumpWorkspaceRevision({ workspaceId: holder.id });
  return dataOf(updated);
}

export async function removeAgent(scope: DefinitionScope, id: string): Promise<void> {
  await requireWorkspace(scope.workspaceId);
  if (!(await removeHeldAgent(workspaceHolder(scope.workspaceId), id))) throw await notOwn(scope, id);
}

/** false: the holder has no agent of that id. */
export async function removeHeldAgent(holder: DefinitionHolder, id: string): Promise<boolean> {
  if (!(await deleteAgentDefinition({ workspaceId: holder.id, id }))) return false;
  await bumpWorkspaceRevision({ workspaceId: holder.id });
  return true;
}

export { GENERAL_PURPOSE_AGENT_ID };
