-- An agent definition may set how many model calls one reply of its child may make (null: HINTLINE_MAX_STEPS).
-- AlterTable (a column added in place: no rewrite of the table)
ALTER TABLE "AgentDefinition" ADD COLUMN "maxSteps" INTEGER;
