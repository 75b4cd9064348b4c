-- A conversation's MCP tool list is cut (tools per server, schema depth and size, a share of the window): the tools
-- left out, with their reasons, and whether the agent was told of them.
-- AlterTable (columns added in place: no rewrite of the table, whatever its size)
ALTER TABLE "ConversationMcpTools" ADD COLUMN "leftOut" TEXT;
ALTER TABLE "ConversationMcpTools" ADD COLUMN "leftOutTold" BOOLEAN NOT NULL DEFAULT false;
