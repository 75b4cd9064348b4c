-- AlterTable (a plain ADD COLUMN: rebuilding Workspace would touch the rows conversations point at)
ALTER TABLE "Workspace" ADD COLUMN "settings" JSONB;
