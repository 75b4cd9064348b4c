-- A durable fact the system kept says whose words it came from: "person" or "agent" (null: the extraction named none,
-- or the entry is not the system's).
-- AlterTable (a column added in place: no rewrite of the table)
ALTER TABLE "MemoryEntry" ADD COLUMN "source" TEXT;
