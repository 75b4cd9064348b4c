-- Messages the person queued while a reply runs (issue 45, item 4): next-step ones enter the running reply at its next
-- step, after-reply ones become the next turn. Read by (conversationId, status, position).
-- CreateTable
CREATE TABLE "QueuedMessage" (
    "conversationId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "when" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "message" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "replyId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" DATETIME,

    PRIMARY KEY ("conversationId", "id"),
    CONSTRAINT "QueuedMessage_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "QueuedMessage_conversationId_status_position_idx" ON "QueuedMessage"("conversationId", "status", "position");
