-- CreateTable
CREATE TABLE "CacheBaseline" (
    "conversationId" TEXT NOT NULL PRIMARY KEY,
    "version" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    CONSTRAINT "CacheBaseline_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
