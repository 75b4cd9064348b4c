// The request-body ceilings, in one place for the three layers that enforce them: the HTTP server in front of Next.js
// (scripts/server.mjs), the body buffer Next.js keeps for proxy.ts (next.config.mjs) and the routes themselves
// (lib/api/limits.ts, lib/chat/attachments.ts). Each layer above a route lets through at least what the route takes, so
// that the route answers with its own words; 4 attachments of 8 MiB were refused by the server's own ceiling (40 MiB)
// before any route saw them. Plain JavaScript: the server and the Next.js config load it without a bundler.

const KiB = 1024;
const MiB = 1024 * KiB;

export const DEFAULT_MAX_IMPORT_BYTES = 32 * MiB;
export const DEFAULT_MAX_ATTACHMENTS = 4;
export const DEFAULT_MAX_ATTACHMENT_BYTES = 8 * MiB;
/** The characters of text a person's message may hold. */
export const MAX_MESSAGE_TEXT = 100_000;
/** A chat body besides its attachments: the message's text at 3 UTF-8 bytes a character at most, and its other fields. */
export const MAX_CHAT_TEXT_BODY_BYTES = 3 * MAX_MESSAGE_TEXT + 16 * KiB;
/** The JSON around one attachment's base64: its keys, media type and a filename of 255 characters, however escaped. */
const ATTACHMENT_JSON_BYTES = 2 * KiB;

/** As lib/env-number.ts reads a number: a missing, blank, negative or non-numeric value means the default. */
function envNumber(env, name, fallback) {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** The largest import body, and so the largest export (HINTLINE_MAX_IMPORT_BYTES). */
export function maxImportBytes(env = process.env) {
  return envNumber(env, "HINTLINE_MAX_IMPORT_BYTES", DEFAULT_MAX_IMPORT_BYTES);
}

/** HINTLINE_MAX_ATTACHMENTS (per message) and HINTLINE_MAX_ATTACHMENT_BYTES (per file). */
export function attachmentLimits(env = process.env) {
  return {
    maxCount: Math.floor(envNumber(env, "HINTLINE_MAX_ATTACHMENTS", DEFAULT_MAX_ATTACHMENTS)),
    maxBytes:
      Math.floor(envNumber(env, "HINTLINE_MAX_ATTACHMENT_BYTES", DEFAULT_MAX_ATTACHMENT_BYTES)) ||
      DEFAULT_MAX_ATTACHMENT_BYTES,
  };
}

/** The largest chat body: a message's text plus its attachments as base64 data URLs, with their JSON around them. */
export function maxChatBodyBytes(env = process.env) {
  const { maxCount, maxBytes } = attachmentLimits(env);
  return MAX_CHAT_TEXT_BODY_BYTES + maxCount * (Math.ceil(maxBytes / 3) * 4 + ATTACHMENT_JSON_BYTES);
}

/** The largest body any route takes (an import's or a chat message's). */
export function maxRouteBodyBytes(env = process.env) {
  return Math.max(maxImportBytes(env), maxChatBodyBytes(env));
}
