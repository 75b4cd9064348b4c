-- Subagents: agent definitions per workspace, and a child conversation's link to its parent and its run.
-- CreateTable
CREATE TABLE "AgentDefinition" (
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "instructions" TEXT NOT NULL,
    "tools" JSONB,
    "model" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("workspaceId", "agentId"),
    CONSTRAINT "AgentDefinition_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Conversation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL DEFAULT 'default',
    "title" TEXT NOT NULL DEFAULT 'New chat',
    "settings" JSONB,
    "agentState" JSONB,
    "taskSeq" INTEGER NOT NULL DEFAULT 0,
    "messageSeq" INTEGER NOT NULL DEFAULT 0,
    "mode" TEXT NOT NULL DEFAULT 'build',
    "planSeq" INTEGER NOT NULL DEFAULT 0,
    "branchMove" JSONB,
    "model" TEXT,
    "parentId" TEXT,
    "agentKey" TEXT,
    "agentStatus" TEXT,
    "agentBackground" BOOLEAN NOT NULL DEFAULT false,
    "agentPending" BOOLEAN NOT NULL DEFAULT false,
    "agentRun" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Conversation_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Conversation_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Conversation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Conversation" ("agentState", "branchMove", "createdAt", "id", "messageSeq", "mode", "model", "planSeq", "settings", "taskSeq", "title", "updatedAt", "workspaceId") SELECT "agentState", "branchMove", "createdAt", "id", "messageSeq", "mode", "model", "planSeq", "settings", "taskSeq", "title", "updatedAt", "workspaceId" FROM "Conversation";
DROP TABLE "Conversation";
ALTER TABLE "new_Conversation" RENAME TO "Conversation";
CREATE INDEX "Conversation_updatedAt_idx" ON "Conversation"("updatedAt");
CREATE INDEX "Conversation_workspaceId_updatedAt_idx" ON "Conversation"("workspaceId", "updatedAt");
CREATE INDEX "Conversation_parentId_agentPending_idx" ON "Conversation"("parentId", "agentPending");
CREATE UNIQUE INDEX "Conversation_parentId_agentKey_key" ON "Conversation"("parentId", "agentKey");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
