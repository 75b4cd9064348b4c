// Queries for a workspace's skills (one row per kebab-case name).
import { getDb, lockedTransaction } from "./client.ts";

export type Skill = {
  workspaceId: string;
  name: string;
  description: string;
  instructions: string;
  createdAt: string;
  updatedAt: string;
};

type Row = Omit<Skill, "createdAt" | "updatedAt"> & { createdAt: Date; updatedAt: Date };

const toSkill = (row: Row): Skill => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function listSkills({ workspaceId }: { workspaceId: string }): Promise<Skill[]> {
  const db = await getDb();
  return (await db.skill.findMany({ where: { workspaceId }, orderBy: { name: "asc" } })).map(toSkill);
}

export async function getSkill({ workspaceId, name }: { workspaceId: string; name: string }): Promise<Skill | null> {
  const db = await getDb();
  const row = await db.skill.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  return row ? toSkill(row) : null;
}

/**
 * "limit" when the workspace has `max` skills already (counted under its skills lock, so concurrent creates cannot
 * pass it); throws Prisma's P2002 when the workspace already has a skill of that name.
 */
export async function createSkill({
  max,
  ...skill
}: {
  workspaceId: string;
  name: string;
  description: string;
  instructions: string;
  max: number;
}): Promise<Skill | "limit"> {
  return lockedTransaction(`skills:${skill.workspaceId}`, async (tx) => {
    if ((await tx.skill.count({ where: { workspaceId: skill.workspaceId } })) >= max) return "limit" as const;
    return toSkill(await tx.skill.create({ data: skill }));
  });
}

export async function updateSkill({
  workspaceId,
  name,
  description,
  instructions,
}: {
  workspaceId: string;
  name: string;
  description?: string;
  instructions?: string;
}): Promise<Skill | null> {
  const db = await getDb();
  const rows = await db.skill.updateManyAndReturn({
    where: { workspaceId, name },
    data: {
      ...(description !== undefined ? { description } : {}),
      ...(instructions !== undefined ? { instructions } : {}),
    },
  });
  return rows[0] ? toSkill(rows[0]) : null;
}

export async function deleteSkill({ workspaceId, name }: { workspaceId: string; name: string }): Promise<boolean> {
  const db = await getDb();
  return (await db.skill.deleteMany({ where: { workspaceId, name } })).count > 0;
}
