-- The model a conversation chose (a provider/model id); null keeps the default model (HINTLINE_MODEL).
ALTER TABLE "Conversation" ADD COLUMN "model" TEXT;
