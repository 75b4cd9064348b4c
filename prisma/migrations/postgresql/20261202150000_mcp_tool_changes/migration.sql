-- MCP tool changes reach running conversations: which tools a server's latest listing had, and per conversation the
-- tool list's revision, whether a compression asked for it to be made again, and the changes last told.
-- AlterTable
ALTER TABLE "McpToolFingerprint" ADD COLUMN     "listed" BOOLEAN NOT NULL DEFAULT true;
-- AlterTable
ALTER TABLE "ConversationMcpTools" ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "stale" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "toldChanges" TEXT;
