-- CreateTable
CREATE TABLE "KnowledgeLine" (
    "workspaceId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "KnowledgeLine_pkey" PRIMARY KEY ("workspaceId","path","line")
);

-- AddForeignKey
ALTER TABLE "KnowledgeLine" ADD CONSTRAINT "KnowledgeLine_workspaceId_path_fkey" FOREIGN KEY ("workspaceId", "path") REFERENCES "KnowledgeFile"("workspaceId", "path") ON DELETE CASCADE ON UPDATE CASCADE;

-- Full-text index of the lines (KnowledgeSearch matches to_tsvector('simple', "text") against it).
CREATE INDEX "KnowledgeLine_search_idx" ON "KnowledgeLine" USING GIN (to_tsvector('simple', "text"));
