// Request schemas of the state source API (a workspace's /state-sources). An http source names a URL (and write-only
// headers), an mcp-resource source a server of the workspace and a resource uri; neither takes the other's fields.
import { z } from "zod";
import {
  MAX_REFRESH_SECONDS,
  MAX_STATE_MAX_TOKENS,
  MAX_STATE_TIMEOUT_SECONDS,
  MIN_REFRESH_SECONDS,
  MIN_STATE_MAX_TOKENS,
  STATE_SOURCE_KINDS,
  STATE_SOURCE_NAME_MAX_CHARS,
  STATE_SOURCE_NAME_PATTERN,
} from "../agent/state-source-rules.ts";
import { headersSchema, mcpServerNameSchema, outboundUrlSchema } from "./mcp-schemas.ts";

export const MAX_STATE_URI_CHARS = 2_048;

export const stateSourceNameSchema = z
  .string({ message: "must be a string" })
  .refine((v) => v.length <= STATE_SOURCE_NAME_MAX_CHARS, {
    message: `must be at most ${STATE_SOURCE_NAME_MAX_CHARS} characters`,
  })
  .refine((v) => STATE_SOURCE_NAME_PATTERN.test(v), {
    message: 'must be kebab-case: lower-case letters and digits joined by single hyphens, like "deploy-status"',
  });

const whole = (what: string, min: number, max: number) =>
  z
    .number({ message: `must be a number of ${what}` })
    .int({ message: `must be a whole number of ${what}` })
    .min(min, { message: `must be at least ${min}` })
    .max(max, { message: `must be at most ${max.toLocaleString("en-US")}` });

const url = outboundUrlSchema("; a state source is read with a GET");
const uri = z
  .string({ message: "must be a string (the resource's URI on the server)" })
  .min(1, { message: "must not be empty" })
  .max(MAX_STATE_URI_CHARS, { message: `must be at most ${MAX_STATE_URI_CHARS.toLocaleString("en-US")} characters` })
  .refine((v) => !/[\u0000-\u001f\u007f\s]/.test(v), { message: "must not hold spaces or control characters" });

const common = {
  refreshSeconds: whole("seconds", MIN_REFRESH_SECONDS, MAX_REFRESH_SECONDS).optional(),
  timeoutSeconds: whole("seconds", 1, MAX_STATE_TIMEOUT_SECONDS).optional(),
  maxTokens: whole("tokens", MIN_STATE_MAX_TOKENS, MAX_STATE_MAX_TOKENS).optional(),
  enabled: z.boolean({ message: "must be true or false" }).optional(),
};

const kind = z.enum(STATE_SOURCE_KINDS, { message: `must be one of ${STATE_SOURCE_KINDS.join(", ")}` });

/** The fields that belong to the other kind, named in the message. */
function refuseOtherKind(
  value: { kind?: string; url?: unknown; headers?: unknown; server?: unknown; uri?: unknown },
  ctx: z.RefinementCtx,
) {
  const foreign =
    value.kind === "http"
      ? (["server", "uri"] as const)
      : value.kind === "mcp-resource"
        ? (["url", "headers"] as const)
        : [];
  for (const key of foreign)
    if (value[key] !== undefined)
      ctx.addIssue({ code: "custom", message: `does not go with kind ${value.kind}`, path: [key] });
}

export const createStateSourceSchema = z
  .object({
    name: stateSourceNameSchema,
    kind,
    url: url.optional(),
    headers: headersSchema.optional(),
    server: mcpServerNameSchema.optional(),
    uri: uri.optional(),
    ...common,
  })
  .strict()
  .superRefine((value, ctx) => {
    refuseOtherKind(value, ctx);
    if (value.kind === "http" && value.url === undefined)
      ctx.addIssue({
        code: "custom",
        message: "is required for kind http (the URL answering the fields)",
        path: ["url"],
      });
    if (value.kind === "mcp-resource") {
      if (value.server === undefined)
        ctx.addIssue({
          code: "custom",
          message: "is required for kind mcp-resource (one of the workspace's MCP servers)",
          path: ["server"],
        });
      if (value.uri === undefined)
        ctx.addIssue({
          code: "custom",
          message: "is required for kind mcp-resource (the resource's URI)",
          path: ["uri"],
        });
    }
  });

/** A source's kind and name stay; `headers`, when sent, replaces every header (send them all again). */
export const updateStateSourceSchema = z
  .object({
    url: url.optional(),
    headers: headersSchema.optional(),
    server: mcpServerNameSchema.optional(),
    uri: uri.optional(),
    ...common,
  })
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: "send url, headers, server, uri, refreshSeconds, timeoutSeconds, maxTokens and/or enabled",
  });
