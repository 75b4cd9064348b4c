// Queries for a workspace's agent definitions (one row per kebab-case id).
import { getDb, lockedTransaction } from "./client.ts";

export type AgentDefinition = {
  workspaceId: string;
  id: string;
  description: string;
  instructions: string;
  /** Absent: the child's default tools. */
  tools?: string[];
  model?: string;
  /** The model calls one reply of the child may make (absent: HINTLINE_MAX_STEPS). */
  maxSteps?: number;
  createdAt: string;
  updatedAt: string;
};

type Row = {
  workspaceId: string;
  agentId: string;
  description: string;
  instructions: string;
  tools: unknown;
  model: string | null;
  maxSteps: number | null;
  createdAt: Date;
  updatedAt: Date;
};

/** A stored list read defensively: anything but a list of strings reads as absent (the default tools). */
const toolsOf = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((t) => typeof t === "string") ? (value as string[]) : undefined;

const toDefinition = (row: Row): AgentDefinition => {
  const tools = toolsOf(row.tools);
  return {
    workspaceId: row.workspaceId,
    id: row.agentId,
    description: row.description,
    instructions: row.instructions,
    ...(tools ? { tools } : {}),
    ...(row.model ? { model: row.model } : {}),
    ...(row.maxSteps ? { maxSteps: row.maxSteps } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
};

export async function listAgentDefinitions({ workspaceId }: { workspaceId: string }): Promise<AgentDefinition[]> {
  const db = await getDb();
  return (await db.agentDefinition.findMany({ where: { workspaceId }, orderBy: { agentId: "asc" } })).map(toDefinition);
}

export type AgentDefinitionInput = {
  description: string;
  instructions: string;
  tools?: string[] | null;
  model?: string | null;
  maxSteps?: number | null;
};

/**
 * "limit" when the workspace has `max` definitions already (counted under its lock, so concurrent creates cannot pass
 * it); throws Prisma's P2002 when the workspace already has one with that id.
 */
export async function createAgentDefinition({
  workspaceId,
  id,
  max,
  tools,
  model,
  maxSteps,
  ...fields
}: AgentDefinitionInput & { workspaceId: string; id: string; max: number }): Promise<AgentDefinition | "limit"> {
  return lockedTransaction(`agents:${workspaceId}`, async (tx) => {
    if ((await tx.agentDefinition.count({ where: { workspaceId } })) >= max) return "limit" as const;
    const row = await tx.agentDefinition.create({
      data: {
        workspaceId,
        agentId: id,
        ...fields,
        tools: tools ?? undefined,
        model: model ?? null,
        maxSteps: maxSteps ?? null,
      },
    });
    return toDefinition(row);
  });
}

/** Changes what is given (`null` tools, model or maxSteps: back to the default); null when there is no such definition. */
export async function updateAgentDefinition({
  workspaceId,
  id,
  description,
  instructions,
  tools,
  model,
  maxSteps,
}: Partial<AgentDefinitionInput> & { workspaceId: string; id: string }): Promise<AgentDefinition | null> {
  const db = await getDb();
  // A JSON column is set to SQL NULL by statement (Prisma's DbNull differs per generated client).
  if (tools === null)
    await db.$executeRaw`UPDATE "AgentDefinition" SET "tools" = NULL WHERE "workspaceId" = ${workspaceId} AND "agentId" = ${id}`;
  const rows = await db.agentDefinition.updateManyAndReturn({
    where: { workspaceId, agentId: id },
    data: {
      ...(description !== undefined ? { description } : {}),
      ...(instructions !== undefined ? { instructions } : {}),
      ...(tools ? { tools } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(maxSteps !== undefined ? { maxSteps } : {}),
    },
  });
  return rows[0] ? toDefinition(rows[0]) : null;
}

export async function deleteAgentDefinition({
  workspaceId,
  id,
}: {
  workspaceId: string;
  id: string;
}): Promise<boolean> {
  const db = await getDb();
  return (await db.agentDefinition.deleteMany({ where: { workspaceId, agentId: id } })).count > 0;
}
