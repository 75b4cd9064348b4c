// Request schemas of the MCP server API (a workspace's HTTP servers). Nothing here can name a program to run.
import { z } from "zod";
import { operatorNote } from "../operator-words.ts";
import {
  MAX_MCP_TIMEOUT_SECONDS,
  MCP_APPROVALS,
  MCP_SERVER_NAME_MAX_CHARS,
  MCP_SERVER_NAME_PATTERN,
} from "../agent/mcp-rules.ts";

export const MAX_MCP_URL_CHARS = 2_048;
export const MAX_MCP_HEADERS = 20;
export const MAX_MCP_HEADER_NAME_CHARS = 100;
export const MAX_MCP_HEADER_VALUE_CHARS = 4_096;

// Headers the transport sets itself (or that would change what the request is): a server's config cannot set them.
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "content-type",
  "connection",
  "transfer-encoding",
  "accept",
  "mcp-session-id",
  "mcp-protocol-version",
  "last-event-id",
  "cookie",
  "upgrade",
  "te",
  "trailer",
  "keep-alive",
  "proxy-authorization",
  "expect",
]);
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
// Control characters (CR and LF would forge headers), tab allowed as HTTP allows it.
const HEADER_VALUE_BAD = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** A tool's own name on its server (as it lists it), in a path. */
export const mcpToolNameSchema = z
  .string({ message: "must be a string" })
  .min(1, { message: "must not be empty" })
  .max(128, { message: "must be at most 128 characters" })
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), { message: "must not hold control characters" });

export const mcpServerNameSchema = z
  .string({ message: "must be a string" })
  .refine((v) => v.length <= MCP_SERVER_NAME_MAX_CHARS, {
    message: `must be at most ${MCP_SERVER_NAME_MAX_CHARS} characters`,
  })
  .refine((v) => MCP_SERVER_NAME_PATTERN.test(v), {
    message: 'must be kebab-case: lower-case letters and digits joined by single hyphens, like "issue-tracker"',
  });

/** An http or https URL without credentials; `otherSchemes` says what to do instead of another scheme. */
export const outboundUrlSchema = (otherSchemes: string) =>
  z
    .string({ message: "must be a string (an http or https URL)" })
    .trim()
    .refine((v) => v.length <= MAX_MCP_URL_CHARS, {
      message: `must be at most ${MAX_MCP_URL_CHARS.toLocaleString("en-US")} characters`,
    })
    .superRefine((v, ctx) => {
      let parsed: URL;
      try {
        parsed = new URL(v);
      } catch {
        ctx.addIssue({
          code: "custom",
          message: "is not a URL; send an http or https URL like https://mcp.example.com/mcp",
        });
        return;
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
        ctx.addIssue({
          code: "custom",
          message: `must be an http or https URL (not ${parsed.protocol.replace(/:$/, "")})${otherSchemes}`,
        });
      } else if (parsed.username || parsed.password) {
        ctx.addIssue({
          code: "custom",
          message: "must not hold a user name or password; send credentials as a header (headers are write-only)",
        });
      }
    });

const url = outboundUrlSchema(
  `; servers that run a program ${operatorNote("come only from the operator's HINTLINE_MCP_CONFIG file", "are set up only by whoever runs this Hintline server")}`,
);

/** Header names to values (write-only), at most MAX_MCP_HEADERS, none the connection sets itself. */
export const headersSchema = z
  .record(z.string(), z.string({ message: "must be a string" }), {
    message: "must be an object of header names to values",
  })
  .superRefine((value, ctx) => {
    const names = Object.keys(value);
    if (names.length > MAX_MCP_HEADERS)
      ctx.addIssue({ code: "custom", message: `has ${names.length} headers, over the limit of ${MAX_MCP_HEADERS}` });
    const seen = new Set<string>();
    for (const name of names) {
      const lower = name.toLowerCase();
      const problem =
        name.length === 0 || name.length > MAX_MCP_HEADER_NAME_CHARS
          ? `must be 1 to ${MAX_MCP_HEADER_NAME_CHARS} characters`
          : !HEADER_NAME.test(name)
            ? "is not a valid HTTP header name"
            : RESERVED_HEADERS.has(lower)
              ? "is set by the connection itself and cannot be configured"
              : seen.has(lower)
                ? "is given twice (header names ignore case)"
                : value[name]!.length > MAX_MCP_HEADER_VALUE_CHARS
                  ? `has a value of ${value[name]!.length.toLocaleString("en-US")} characters, over the limit of ${MAX_MCP_HEADER_VALUE_CHARS.toLocaleString("en-US")}`
                  : HEADER_VALUE_BAD.test(value[name]!)
                    ? "has a value with a line break or control character"
                    : null;
      seen.add(lower);
      if (problem) {
        ctx.addIssue({ code: "custom", message: problem, path: [name] });
        return;
      }
    }
  });

const approval = z.enum(MCP_APPROVALS, { message: `must be one of ${MCP_APPROVALS.join(", ")}` });
const enabled = z.boolean({ message: "must be true or false" });
const timeoutSeconds = z
  .number({ message: "must be a number of seconds" })
  .int({ message: "must be a whole number of seconds" })
  .min(1, { message: "must be at least 1" })
  .max(MAX_MCP_TIMEOUT_SECONDS, { message: `must be at most ${MAX_MCP_TIMEOUT_SECONDS}` })
  .nullable();

export const createMcpServerSchema = z
  .object({
    name: mcpServerNameSchema,
    url,
    headers: headersSchema.optional(),
    approval: approval.optional(),
    enabled: enabled.optional(),
    timeoutSeconds: timeoutSeconds.optional(),
  })
  .strict();

/** `headers`, when sent, replaces every header (values are write-only: send them all again). */
export const updateMcpServerSchema = z
  .object({
    url: url.optional(),
    headers: headersSchema.optional(),
    approval: approval.optional(),
    enabled: enabled.optional(),
    timeoutSeconds: timeoutSeconds.optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: "send url, headers, approval, enabled and/or timeoutSeconds",
  });

export const MAX_APPROVAL_REASON_CHARS = 1_000;

/** POST /api/conversations/:id/approvals/:toolCallId */
export const approvalAnswerSchema = z
  .object({
    approved: z.boolean({ message: "must be true or false" }),
    reason: z
      .string({ message: "must be a string" })
      .max(MAX_APPROVAL_REASON_CHARS, {
        message: `must be at most ${MAX_APPROVAL_REASON_CHARS.toLocaleString("en-US")} characters`,
      })
      .optional(),
    remember: z.literal("tool", { message: 'must be "tool" (always allow this tool)' }).optional(),
  })
  .strict()
  .refine((v) => !(v.remember && !v.approved), {
    message: "remember goes with an approval (approved: true)",
    path: ["remember"],
  });

export const toolCallIdSchema = z
  .string({ message: "must be a string" })
  .min(1, { message: "must not be empty" })
  .max(200, { message: "must be at most 200 characters" })
  .regex(/^[A-Za-z0-9_.:-]+$/, { message: "must hold only letters, digits, _ . : -" });
