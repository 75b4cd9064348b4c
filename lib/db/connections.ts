// Queries for the model endpoints added over the API (one row per kebab-case id). The key arrives encrypted
// (lib/chat/connection-secret.ts) and is stored as it came; nothing here sees it in plain text.
import { getDb, lockedTransaction } from "./client.ts";

export type ConnectionRow = {
  id: string;
  kind: string;
  baseUrl: string | null;
  /** The key as stored: encrypted, or null when there is none. */
  apiKey: string | null;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
};

type Stored = Omit<ConnectionRow, "createdAt" | "updatedAt"> & { createdAt: Date; updatedAt: Date };

const toRow = (row: Stored): ConnectionRow => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function listConnections(): Promise<ConnectionRow[]> {
  const db = await getDb();
  return (await db.connection.findMany({ orderBy: { id: "asc" } })).map(toRow);
}

export async function getConnection(id: string): Promise<ConnectionRow | null> {
  const db = await getDb();
  const row = await db.connection.findUnique({ where: { id } });
  return row ? toRow(row) : null;
}

export type ConnectionInput = { kind: string; baseUrl: string | null; apiKey: string | null; enabled: boolean };

/** "limit" when `max` connections exist already, "taken" when the id is. */
export async function createConnection({
  id,
  max,
  ...input
}: ConnectionInput & { id: string; max: number }): Promise<ConnectionRow | "limit" | "taken"> {
  return lockedTransaction("connections", async (tx) => {
    if (await tx.connection.findUnique({ where: { id } })) return "taken" as const;
    if ((await tx.connection.count()) >= max) return "limit" as const;
    return toRow(await tx.connection.create({ data: { id, ...input } }));
  });
}

export async function updateConnection(
  id: string,
  input: Partial<Omit<ConnectionInput, "kind">>,
): Promise<ConnectionRow | null> {
  const db = await getDb();
  const data = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const rows = await db.connection.updateManyAndReturn({ where: { id }, data });
  return rows[0] ? toRow(rows[0]) : null;
}

export async function deleteConnection(id: string): Promise<boolean> {
  const db = await getDb();
  return (await db.connection.deleteMany({ where: { id } })).count > 0;
}
