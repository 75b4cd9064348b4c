-- CreateTable
CREATE TABLE "McpToolFingerprint" (
    "workspaceId" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "definition" TEXT NOT NULL,
    "pendingHash" TEXT,
    "pendingDefinition" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpToolFingerprint_pkey" PRIMARY KEY ("workspaceId","server","tool")
);

-- AddForeignKey
ALTER TABLE "McpToolFingerprint" ADD CONSTRAINT "McpToolFingerprint_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
