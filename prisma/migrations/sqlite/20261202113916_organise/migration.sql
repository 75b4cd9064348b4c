-- Organising conversations: pinned ones first in the list, archived ones left out of it (still searchable).
-- AlterTable (columns added in place: no rewrite of the table, whatever its size)
ALTER TABLE "Conversation" ADD COLUMN "pinned" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Conversation" ADD COLUMN "archived" BOOLEAN NOT NULL DEFAULT false;
