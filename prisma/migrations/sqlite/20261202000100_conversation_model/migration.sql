-- The model a conversation chose (a provider/model id), or null for the default model (HINTLINE_MODEL).
ALTER TABLE "Conversation" ADD COLUMN "model" TEXT;
