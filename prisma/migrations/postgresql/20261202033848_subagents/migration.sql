-- Subagents: agent definitions per workspace, and a child conversation's link to its parent and its run.
-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "agentBackground" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "agentKey" TEXT,
ADD COLUMN     "agentPending" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "agentRun" JSONB,
ADD COLUMN     "agentStatus" TEXT,
ADD COLUMN     "parentId" TEXT;

-- CreateTable
CREATE TABLE "AgentDefinition" (
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "instructions" TEXT NOT NULL,
    "tools" JSONB,
    "model" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AgentDefinition_pkey" PRIMARY KEY ("workspaceId","agentId")
);

-- CreateIndex
CREATE INDEX "Conversation_parentId_agentPending_idx" ON "Conversation"("parentId", "agentPending");

-- CreateIndex
CREATE UNIQUE INDEX "Conversation_parentId_agentKey_key" ON "Conversation"("parentId", "agentKey");

-- AddForeignKey
ALTER TABLE "AgentDefinition" ADD CONSTRAINT "AgentDefinition_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
