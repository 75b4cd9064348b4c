-- CreateTable
CREATE TABLE "MessageBranch" (
    "conversationId" TEXT NOT NULL,
    "anchorId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "archived" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("conversationId", "anchorId", "ordinal"),
    CONSTRAINT "MessageBranch_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
