-- MCP tool changes reach running conversations: which tools a server's latest listing had, and per conversation the
-- tool list's revision, whether a compression asked for it to be made again, and the changes last told.
-- AlterTable (columns added in place: no rewrite of the table, whatever its size)
ALTER TABLE "McpToolFingerprint" ADD COLUMN "listed" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "ConversationMcpTools" ADD COLUMN "revision" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "ConversationMcpTools" ADD COLUMN "stale" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "ConversationMcpTools" ADD COLUMN "toldChanges" TEXT;
