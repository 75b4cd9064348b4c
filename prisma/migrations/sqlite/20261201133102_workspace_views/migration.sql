-- AlterTable
ALTER TABLE "MemoryEntry" ADD COLUMN "conversationId" TEXT;

-- CreateTable
CREATE TABLE "ConversationWorkspace" (
    "conversationId" TEXT NOT NULL PRIMARY KEY,
    "frozenId" TEXT NOT NULL,
    "frozen" JSONB NOT NULL,
    "seenRevision" TEXT NOT NULL,
    "seen" JSONB NOT NULL,
    CONSTRAINT "ConversationWorkspace_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (a plain ADD COLUMN: rebuilding Workspace would touch the rows conversations point at)
ALTER TABLE "Workspace" ADD COLUMN "revision" INTEGER NOT NULL DEFAULT 0;
