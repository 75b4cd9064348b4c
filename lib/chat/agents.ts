// Agent definitions: a workspace's own, default's (visible in every workspace unless it has one of the same id), and
// the built-in general-purpose agent (lib/agent/subagents.ts).
import { type AgentDefinitionData, GENERAL_PURPOSE_AGENT_ID, type VisibleAgent, visibleAgents } from "../agent/subagents.ts";
import { MAX_AGENTS } from "../agent/workspace-limits.ts";
import type { CreateAgentInput, UpdateAgentInput } from "../api/agent-schemas.ts";
import { ApiError } from "../api/errors.ts";
import { type AgentDefinition, createAgentDefinition, deleteAgentDefinition, listAgentDefinitions, updateAgentDefinition } from "../db/agents.ts";
import { bumpWorkspaceRevision } from "../db/workspace-views.ts";
import { inheritsDefault } from "../db/ownership.ts";
import { DEFAULT_WORKSPACE_ID, isUniqueViolation } from "../db/workspaces.ts";
import { checkModelChoice } from "./conversation-model.ts";
import { requireWorkspace } from "./workspaces.ts";

export type { AgentDefinition, VisibleAgent };

const dataOf = ({ id, description, instructions, tools, model }: AgentDefinition): AgentDefinitionData => ({
  id,
  description,
  instructions,
  ...(tools ? { tools } : {}),
  ...(model ? { model } : {}),
});

/** Every agent a conversation in `workspaceId` sees (its own, default's, the built-in), by id, with its origin. */
export async function workspaceAgents(workspaceId: string): Promise<VisibleAgent[]> {
  await requireWorkspace(workspaceId);
  return agentsVisibleIn(workspaceId);
}

/** As workspaceAgents, without checking the workspace (a conversation's own is known to exist). */
export async function agentsVisibleIn(workspaceId: string): Promise<VisibleAgent[]> {
  const [own, shared] = await Promise.all([
    listAgentDefinitions({ workspaceId }),
    inheritsDefault({ workspaceId }).then((inherits) => (inherits ? listAgentDefinitions({ workspaceId: DEFAULT_WORKSPACE_ID }) : [])),
  ]);
  return visibleAgents(own.map(dataOf), shared.map(dataOf));
}

/** The agent a conversation in `workspaceId` spawns by that id, or null. */
export async function visibleAgent(workspaceId: string, id: string): Promise<VisibleAgent | null> {
  return (await agentsVisibleIn(workspaceId)).find((a) => a.id === id) ?? null;
}

export async function readAgent(workspaceId: string, id: string): Promise<VisibleAgent> {
  await requireWorkspace(workspaceId);
  const agent = await visibleAgent(workspaceId, id);
  if (!agent) throw new ApiError("not_found", `Agent ${id} does not exist in workspace ${workspaceId} (nor in default).`);
  return agent;
}

/** 404 for an id the workspace does not define itself, saying where the one it sees comes from. */
async function notOwn(workspaceId: string, id: string): Promise<ApiError> {
  const seen = await visibleAgent(workspaceId, id);
  const where =
    seen?.origin === "built-in"
      ? `${id} is built in`
      : seen?.origin === "default"
        ? `${id} comes from the default workspace (edit it there)`
        : `Agent ${id} does not exist in workspace ${workspaceId}`;
  const override = seen ? `; create one with the id ${id} in this workspace to replace it here` : "";
  return new ApiError("not_found", `${where}${override}.`);
}

export async function addAgent(workspaceId: string, input: CreateAgentInput): Promise<VisibleAgent> {
  await requireWorkspace(workspaceId);
  const model = input.model === undefined ? undefined : checkModelChoice(input.model);
  try {
    const created = await createAgentDefinition({ workspaceId, ...input, model, max: MAX_AGENTS });
    if (created === "limit") throw new ApiError("conflict", `Workspace ${workspaceId} already has ${MAX_AGENTS} agents, the limit; delete one first.`);
    await bumpWorkspaceRevision({ workspaceId });
    return { ...dataOf(created), origin: "workspace" };
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("conflict", `Workspace ${workspaceId} already has an agent with the id ${input.id}; edit it instead.`, "id");
    throw error;
  }
}

export async function editAgent(workspaceId: string, id: string, input: UpdateAgentInput): Promise<VisibleAgent> {
  await requireWorkspace(workspaceId);
  const model = input.model === undefined || input.model === null ? input.model : checkModelChoice(input.model);
  const updated = await updateAgentDefinition({ workspaceId, id, ...input, model });
  if (!updated) throw await notOwn(workspaceId, id);
  await bumpWorkspaceRevision({ workspaceId });
  return { ...dataOf(updated), origin: "workspace" };
}

export async function removeAgent(workspaceId: string, id: string): Promise<void> {
  await requireWorkspace(workspaceId);
  if (!(await deleteAgentDefinition({ workspaceId, id }))) throw await notOwn(workspaceId, id);
  await bumpWorkspaceRevision({ workspaceId });
}

export { GENERAL_PURPOSE_AGENT_ID };
