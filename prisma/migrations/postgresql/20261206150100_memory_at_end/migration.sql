-- Durable facts when a conversation ends, not only at a compression: the position below which the conversation's
-- messages were offered for facts, and the time of its last message since it last ended (found through the index by
-- the idle sweep, null: nothing new).
-- AlterTable (columns added in place: no rewrite of the table, whatever its size)
ALTER TABLE "Conversation" ADD COLUMN "memoryFrom" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "memoryDueAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Conversation_memoryDueAt_idx" ON "Conversation"("memoryDueAt");
