-- CreateTable
CREATE TABLE "CacheBaseline" (
    "conversationId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "data" JSONB NOT NULL,

    CONSTRAINT "CacheBaseline_pkey" PRIMARY KEY ("conversationId")
);

-- AddForeignKey
ALTER TABLE "CacheBaseline" ADD CONSTRAINT "CacheBaseline_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
