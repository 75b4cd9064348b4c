// Subagents in an export and an import: a conversation's export carries its children (and theirs), each with its key,
// status and run record and its own conversation; an import recreates them under the new parent, each under its
// exported id when that is free and a new one otherwise. A child exported while it ran comes back stopped.
import type { ImportedAgent } from "../api/schemas.ts";
import type { ChildStatus } from "../chat-message.ts";
import { getConversation } from "../db/conversations.ts";
import { adoptChild, type ChildRun, listChildren, runOf } from "../db/subagents.ts";

/** Levels exported below a conversation (a child and a grandchild; HINTLINE_MAX_AGENT_DEPTH allows no deeper). */
const MAX_LEVELS = 2;
export const IMPORTED_RUNNING_NOTE = "It was running when its conversation was exported, so the import stopped it.";

export type ExportedAgent<C> = { agentKey: string; status: ChildStatus; run: ChildRun; conversation: C };

/** The children of `id` for its export, each with its conversation as `exportOne` exports it. */
export async function exportedAgents<C>(
  id: string,
  exportOne: (childId: string, level: number) => Promise<C>,
  level = 0,
): Promise<ExportedAgent<C>[]> {
  if (level >= MAX_LEVELS) return [];
  const agents: ExportedAgent<C>[] = [];
  for (const child of await listChildren({ parentId: id })) {
    agents.push({
      agentKey: child.agentKey,
      status: child.status,
      run: child.run,
      conversation: await exportOne(child.id, level + 1),
    });
  }
  return agents;
}

/** Imports each agent's conversation with `importOne` and makes it a child of `parentId`. */
export async function importAgents(
  parentId: string,
  agents: readonly ImportedAgent[],
  importOne: (agent: ImportedAgent) => Promise<{ id: string }>,
): Promise<void> {
  const parent = await getConversation({ id: parentId });
  if (!parent) return;
  for (const agent of agents) {
    const { id } = await importOne(agent);
    const run = runOf(agent.run);
    const status = agent.status === "running" ? "stopped" : agent.status;
    if (agent.status === "running")
      Object.assign(run, { endedAt: run.endedAt ?? new Date().toISOString(), error: IMPORTED_RUNNING_NOTE });
    await adoptChild({ id, parentId, workspaceId: parent.workspaceId, agentKey: agent.agentKey, status, run });
  }
}
