// Whether an error, or anything it wraps, says the disk is full: SQLite's SQLITE_FULL, PostgreSQL's 53100
// (disk_full), or the system's ENOSPC, however the database driver and Prisma wrap them.
const CODES = new Set(["SQLITE_FULL", "53100", "ENOSPC", "disk_full"]);
const MESSAGES = /database or disk is full|no space left on device|could not extend file|\bdisk_full\b/i;
const NESTED = ["cause", "meta", "driverAdapterError", "lastError", "originalError", "error"];

export const DISK_FULL_MESSAGE = "The server's disk is full; nothing was saved.";
/** Mid-reply the person's message is stored, and so is the reply up to its last save. */
export const DISK_FULL_REPLY_MESSAGE =
  "The server's disk is full, so the rest of this reply could not be saved. Free some space and retry.";

export function isDiskFull(error: unknown, depth = 0): boolean {
  if (depth > 6 || error === null || typeof error !== "object")
    return typeof error === "string" && MESSAGES.test(error);
  const e = error as Record<string, unknown>;
  for (const key of ["code", "originalCode", "kind"]) {
    if (typeof e[key] === "string" && CODES.has(e[key] as string)) return true;
  }
  for (const key of ["message", "originalMessage"]) {
    if (typeof e[key] === "string" && MESSAGES.test(e[key] as string)) return true;
  }
  return NESTED.some((key) => key in e && e[key] !== error && isDiskFull(e[key], depth + 1));
}
