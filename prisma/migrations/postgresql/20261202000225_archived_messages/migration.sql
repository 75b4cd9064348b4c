-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN "branchMove" JSONB;

-- CreateTable
CREATE TABLE "ArchivedMessage" (
    "conversationId" TEXT NOT NULL,
    "branchKey" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "parts" JSONB NOT NULL,
    "metadata" JSONB,
    "status" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ArchivedMessage_pkey" PRIMARY KEY ("conversationId","branchKey","position")
);

-- AddForeignKey
ALTER TABLE "ArchivedMessage" ADD CONSTRAINT "ArchivedMessage_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
