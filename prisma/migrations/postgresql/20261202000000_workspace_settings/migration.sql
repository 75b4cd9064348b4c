-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "settings" JSONB;
