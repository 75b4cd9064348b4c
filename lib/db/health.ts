// What the health check asks the database: that it answers, and which migrations it has applied.
import { getDb } from "./client.ts";

export async function pingDatabase(): Promise<void> {
  await (await getDb()).$queryRawUnsafe("SELECT 1");
}

/** The names of the migrations applied to the database (Prisma's `_prisma_migrations` table). */
export async function appliedMigrations(): Promise<Set<string>> {
  const rows = await (await getDb()).$queryRawUnsafe<{ migration_name: string }[]>(
    "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
  );
  return new Set(rows.map((row) => row.migration_name));
}
