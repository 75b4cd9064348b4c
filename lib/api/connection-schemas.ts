// Request schemas of the connections API (/api/connections): model endpoints an admin adds without a restart.
import { z } from "zod";

export const CONNECTION_KINDS = ["openai-compatible", "openai", "anthropic", "google"] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

export const MAX_CONNECTION_ID_CHARS = 40;
export const MAX_CONNECTION_URL_CHARS = 2_048;
export const MAX_CONNECTION_KEY_CHARS = 4_096;
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const connectionIdSchema = z
  .string({ message: "must be a string" })
  .refine((v) => v.length <= MAX_CONNECTION_ID_CHARS, {
    message: `must be at most ${MAX_CONNECTION_ID_CHARS} characters`,
  })
  .refine((v) => KEBAB.test(v), {
    message: 'must be kebab-case: lower-case letters and digits joined by single hyphens, like "home-ollama"',
  });

const baseUrl = z
  .string({ message: "must be a string (an http or https URL)" })
  .trim()
  .refine((v) => v.length <= MAX_CONNECTION_URL_CHARS, {
    message: `must be at most ${MAX_CONNECTION_URL_CHARS.toLocaleString("en-US")} characters`,
  })
  .superRefine((v, ctx) => {
    let parsed: URL;
    try {
      parsed = new URL(v);
    } catch {
      ctx.addIssue({ code: "custom", message: "is not a URL; send one like http://localhost:11434/v1" });
      return;
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
      ctx.addIssue({ code: "custom", message: "must be an http or https URL" });
    else if (parsed.username || parsed.password)
      ctx.addIssue({ code: "custom", message: "must not hold a user name or password; send the key as apiKey" });
    else if (parsed.search || parsed.hash)
      ctx.addIssue({ code: "custom", message: "must not hold a query or a fragment; send the key as apiKey" });
  });

const apiKey = z
  .string({ message: "must be a string" })
  .min(1, { message: "must not be empty (send null to remove the key)" })
  .max(MAX_CONNECTION_KEY_CHARS, { message: `must be at most ${MAX_CONNECTION_KEY_CHARS} characters` })
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), { message: "must not hold a line break or control character" });

const enabled = z.boolean({ message: "must be true or false" });

export const createConnectionSchema = z
  .object({
    id: connectionIdSchema,
    kind: z.enum(CONNECTION_KINDS, { message: `must be one of ${CONNECTION_KINDS.join(", ")}` }),
    baseUrl: baseUrl.optional(),
    apiKey: apiKey.optional(),
    enabled: enabled.optional(),
  })
  .strict();

/** `apiKey: null` removes the key; `baseUrl: null` goes back to the kind's own endpoint. The kind cannot change. */
export const updateConnectionSchema = z
  .object({ baseUrl: baseUrl.nullable().optional(), apiKey: apiKey.nullable().optional(), enabled: enabled.optional() })
  .strict()
  .refine((v) => v.baseUrl !== undefined || v.apiKey !== undefined || v.enabled !== undefined, {
    message: "give baseUrl, apiKey or enabled",
  });

export type CreateConnection = z.infer<typeof createConnectionSchema>;
export type UpdateConnection = z.infer<typeof updateConnectionSchema>;
