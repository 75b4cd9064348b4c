// Request schemas of organising conversations: the export of several at once and the bundle it answers (which
// POST /api/conversations/import accepts as well as one conversation's export).
import { z } from "zod";
import { idSchema, importSchema } from "./schemas.ts";

/** At most this many conversations are exported (and imported) at once. */
export const MAX_BUNDLE_CONVERSATIONS = 100;

export const exportManySchema = z
  .object({
    ids: z
      .array(idSchema, { message: "must be an array of conversation ids" })
      .min(1, { message: "must name at least one conversation" })
      .max(MAX_BUNDLE_CONVERSATIONS, { message: `must name at most ${MAX_BUNDLE_CONVERSATIONS} conversations` }),
  })
  .strict();

export const importBundleSchema = z.object({
  version: z.literal(1, { message: "must be 1 (the export format version)" }),
  conversations: z
    .array(importSchema.shape.conversation, { message: "must be an array of exported conversations" })
    .min(1, { message: "must hold at least one conversation" })
    .max(MAX_BUNDLE_CONVERSATIONS, { message: `must hold at most ${MAX_BUNDLE_CONVERSATIONS} conversations` }),
});

/** A body with a `conversations` field is a bundle (POST /api/conversations/export's answer); else one conversation. */
export function isBundle(body: unknown): boolean {
  return typeof body === "object" && body !== null && !Array.isArray(body) && Object.hasOwn(body, "conversations");
}
