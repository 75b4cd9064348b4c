-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "MemoryEntry" ADD COLUMN     "conversationId" TEXT;

-- CreateTable
CREATE TABLE "ConversationWorkspace" (
    "conversationId" TEXT NOT NULL,
    "frozenId" TEXT NOT NULL,
    "frozen" JSONB NOT NULL,
    "seenRevision" TEXT NOT NULL,
    "seen" JSONB NOT NULL,

    CONSTRAINT "ConversationWorkspace_pkey" PRIMARY KEY ("conversationId")
);

-- AddForeignKey
ALTER TABLE "ConversationWorkspace" ADD CONSTRAINT "ConversationWorkspace_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
