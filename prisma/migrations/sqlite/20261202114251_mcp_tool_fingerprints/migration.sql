-- CreateTable
CREATE TABLE "McpToolFingerprint" (
    "workspaceId" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "definition" TEXT NOT NULL,
    "pendingHash" TEXT,
    "pendingDefinition" TEXT,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("workspaceId", "server", "tool"),
    CONSTRAINT "McpToolFingerprint_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
