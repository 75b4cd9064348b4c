-- CreateTable
CREATE TABLE "MessageBranch" (
    "conversationId" TEXT NOT NULL,
    "anchorId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "archived" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MessageBranch_pkey" PRIMARY KEY ("conversationId","anchorId","ordinal")
);

-- AddForeignKey
ALTER TABLE "MessageBranch" ADD CONSTRAINT "MessageBranch_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
