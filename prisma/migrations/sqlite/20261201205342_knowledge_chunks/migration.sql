-- Knowledge files are indexed in bounded chunks of lines (lib/db/knowledge-chunks.ts) instead of one row per line:
-- a file of a million short lines was a million rows written in one blocking call.

-- CreateTable
CREATE TABLE "KnowledgeChunk" (
    "workspaceId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "firstLine" INTEGER NOT NULL,
    "text" TEXT NOT NULL,

    PRIMARY KEY ("workspaceId", "path", "seq"),
    CONSTRAINT "KnowledgeChunk_workspaceId_path_fkey" FOREIGN KEY ("workspaceId", "path") REFERENCES "KnowledgeFile" ("workspaceId", "path") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Full-text index of the chunks (FTS5, external content: the text lives in KnowledgeChunk once), kept by triggers.
CREATE VIRTUAL TABLE "KnowledgeChunkFts" USING fts5("text", content='KnowledgeChunk', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');

CREATE TRIGGER "KnowledgeChunk_fts_insert" AFTER INSERT ON "KnowledgeChunk" BEGIN
    INSERT INTO "KnowledgeChunkFts"("rowid", "text") VALUES (new."rowid", new."text");
END;

CREATE TRIGGER "KnowledgeChunk_fts_delete" AFTER DELETE ON "KnowledgeChunk" BEGIN
    INSERT INTO "KnowledgeChunkFts"("KnowledgeChunkFts", "rowid", "text") VALUES ('delete', old."rowid", old."text");
END;

CREATE TRIGGER "KnowledgeChunk_fts_update" AFTER UPDATE ON "KnowledgeChunk" BEGIN
    INSERT INTO "KnowledgeChunkFts"("KnowledgeChunkFts", "rowid", "text") VALUES ('delete', old."rowid", old."text");
    INSERT INTO "KnowledgeChunkFts"("rowid", "text") VALUES (new."rowid", new."text");
END;

-- Existing files keep their search: their indexed lines become chunks of 64 lines (the next save re-chunks the file),
-- and a file without indexed lines (saved before the line index existed) becomes one chunk.
INSERT INTO "KnowledgeChunk" ("workspaceId", "path", "seq", "firstLine", "text")
SELECT "workspaceId", "path", ("line" - 1) / 64, MIN("line"), group_concat("text", char(10) ORDER BY "line")
FROM "KnowledgeLine" GROUP BY "workspaceId", "path", ("line" - 1) / 64;

INSERT INTO "KnowledgeChunk" ("workspaceId", "path", "seq", "firstLine", "text")
SELECT f."workspaceId", f."path", 0, 1, f."content" FROM "KnowledgeFile" f
WHERE NOT EXISTS (SELECT 1 FROM "KnowledgeLine" l WHERE l."workspaceId" = f."workspaceId" AND l."path" = f."path");

-- DropTable (its triggers go with it)
DROP TABLE "KnowledgeLineFts";
PRAGMA foreign_keys=off;
DROP TABLE "KnowledgeLine";
PRAGMA foreign_keys=on;
