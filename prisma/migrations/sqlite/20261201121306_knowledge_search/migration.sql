-- CreateTable
CREATE TABLE "KnowledgeLine" (
    "workspaceId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "text" TEXT NOT NULL,

    PRIMARY KEY ("workspaceId", "path", "line"),
    CONSTRAINT "KnowledgeLine_workspaceId_path_fkey" FOREIGN KEY ("workspaceId", "path") REFERENCES "KnowledgeFile" ("workspaceId", "path") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Full-text index of the lines (FTS5, external content: the text lives in KnowledgeLine once), kept by triggers.
CREATE VIRTUAL TABLE "KnowledgeLineFts" USING fts5("text", content='KnowledgeLine', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');

CREATE TRIGGER "KnowledgeLine_fts_insert" AFTER INSERT ON "KnowledgeLine" BEGIN
    INSERT INTO "KnowledgeLineFts"("rowid", "text") VALUES (new."rowid", new."text");
END;

CREATE TRIGGER "KnowledgeLine_fts_delete" AFTER DELETE ON "KnowledgeLine" BEGIN
    INSERT INTO "KnowledgeLineFts"("KnowledgeLineFts", "rowid", "text") VALUES ('delete', old."rowid", old."text");
END;

CREATE TRIGGER "KnowledgeLine_fts_update" AFTER UPDATE ON "KnowledgeLine" BEGIN
    INSERT INTO "KnowledgeLineFts"("KnowledgeLineFts", "rowid", "text") VALUES ('delete', old."rowid", old."text");
    INSERT INTO "KnowledgeLineFts"("rowid", "text") VALUES (new."rowid", new."text");
END;
