// The server's log: JSON lines on stdout (pino), at LOG_LEVEL (default info); a short readable line per entry when
// stdout is a terminal. What a person wrote, hint text, tokens, keys and cookies are never logged: call sites pass
// ids, counts and causes only, errors are cut to their first line and scrubbed of the configured keys and anything
// shaped like a secret (lib/secrets.ts, as a reply's stored error is), and fields named like a secret are censored.
import pino, { type DestinationStream, type Logger } from "pino";
import { scrub } from "../secrets.ts";

export type { Logger };

const LEVELS = new Set(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
// Scrubbed before they are cut, so that a cut cannot leave part of a secret no rule recognises.
const firstLine = (text: string) => scrub(lines(text)[0] ?? "").slice(0, 300);
const lastLine = (text: string) => scrub(lines(text).at(-1) ?? "").slice(0, 300);

/**
 * An error as a log holds it: name, code, the message's first line (a library's message may quote what it was given
 * on the lines after; a Prisma error's last line, its reason, too), the stack's frames, and the cause the same way.
 */
export function serializeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: firstLine(String(error)) };
  const out: Record<string, unknown> = { type: error.name, message: firstLine(error.message) };
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" || typeof code === "number") out.code = code;
  // Prisma's messages quote the call and its arguments in the middle and end with the reason.
  if (typeof code === "string" && /^P\d{4}$/.test(code)) out.reason = lastLine(error.message);
  const frames = error.stack
    ?.split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 8);
  if (frames?.length) out.stack = frames.map((line) => line.trim()).join("\n");
  if (error.cause !== undefined && depth < 3) out.cause = serializeError(error.cause, depth + 1);
  return out;
}

const LABELS: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO ", 40: "WARN ", 50: "ERROR", 60: "FATAL" };

/** The terminal's form of a JSON line: time, level, message, then the other fields as key=value. */
export function prettyLine(json: string): string {
  try {
    const { level, time, msg, pid: _pid, hostname: _host, ...rest } = JSON.parse(json) as Record<string, unknown>;
    const clock = new Date(Number(time)).toISOString().slice(11, 23);
    const fields = Object.entries(rest)
      .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
      .join(" ");
    return `${clock} ${LABELS[Number(level)] ?? level} ${msg ?? ""}${fields ? ` ${fields}` : ""}\n`;
  } catch {
    return json;
  }
}

function level(): string {
  const wanted = process.env.LOG_LEVEL?.trim().toLowerCase();
  return wanted && LEVELS.has(wanted) ? wanted : "info";
}

export function createLogger(destination?: DestinationStream): Logger {
  const pretty: DestinationStream | undefined =
    destination === undefined && process.stdout.isTTY
      ? { write: (line: string) => void process.stdout.write(prettyLine(line)) }
      : undefined;
  return pino(
    {
      level: level(),
      base: { pid: process.pid },
      serializers: { err: serializeError, error: serializeError },
      redact: {
        paths: [
          "authorization",
          "cookie",
          "token",
          "apiKey",
          "password",
          "text",
          "content",
          "*.authorization",
          "*.cookie",
          "*.token",
          "*.apiKey",
          "*.password",
        ],
        censor: "[redacted]",
      },
    },
    destination ?? pretty ?? pino.destination({ dest: 1, sync: true }),
  );
}

const holder = globalThis as unknown as { __hintlineLogger?: Logger };

/** The process's logger (one for every route bundle and instrumentation). */
export function log(): Logger {
  holder.__hintlineLogger ??= createLogger();
  return holder.__hintlineLogger;
}

/** A `.catch` handler that logs a survived failure at warn with its cause: `.catch(logFailure("lease renewal failed"))`. */
export function logFailure(what: string, fields: Record<string, unknown> = {}): (error: unknown) => void {
  return (error) => log().warn({ ...fields, err: error }, what);
}
