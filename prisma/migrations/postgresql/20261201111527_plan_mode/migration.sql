-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "mode" TEXT NOT NULL DEFAULT 'build',
ADD COLUMN     "planSeq" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "PlanVersion" (
    "conversationId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "content" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PlanVersion_pkey" PRIMARY KEY ("conversationId","version")
);

-- AddForeignKey
ALTER TABLE "PlanVersion" ADD CONSTRAINT "PlanVersion_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
