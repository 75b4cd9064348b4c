-- Knowledge files are indexed in bounded chunks of lines (lib/db/knowledge-chunks.ts) instead of one row per line:
-- a 1 MiB file of short lines was a million rows (50 s and 661 MB).

-- CreateTable
CREATE TABLE "KnowledgeChunk" (
    "workspaceId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "firstLine" INTEGER NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "KnowledgeChunk_pkey" PRIMARY KEY ("workspaceId","path","seq")
);

-- AddForeignKey
ALTER TABLE "KnowledgeChunk" ADD CONSTRAINT "KnowledgeChunk_workspaceId_path_fkey" FOREIGN KEY ("workspaceId", "path") REFERENCES "KnowledgeFile"("workspaceId", "path") ON DELETE CASCADE ON UPDATE CASCADE;

-- Full-text index of the chunks (KnowledgeSearch matches to_tsvector('simple', "text") against it).
CREATE INDEX "KnowledgeChunk_search_idx" ON "KnowledgeChunk" USING GIN (to_tsvector('simple', "text"));

-- Existing files keep their search: their indexed lines become chunks of 64 lines (the next save re-chunks the file),
-- and a file without indexed lines becomes one chunk.
INSERT INTO "KnowledgeChunk" ("workspaceId", "path", "seq", "firstLine", "text")
SELECT "workspaceId", "path", ("line" - 1) / 64, MIN("line"), string_agg("text", E'\n' ORDER BY "line")
FROM "KnowledgeLine" GROUP BY "workspaceId", "path", ("line" - 1) / 64;

INSERT INTO "KnowledgeChunk" ("workspaceId", "path", "seq", "firstLine", "text")
SELECT f."workspaceId", f."path", 0, 1, f."content" FROM "KnowledgeFile" f
WHERE NOT EXISTS (SELECT 1 FROM "KnowledgeLine" l WHERE l."workspaceId" = f."workspaceId" AND l."path" = f."path");

-- DropTable
DROP TABLE "KnowledgeLine";
