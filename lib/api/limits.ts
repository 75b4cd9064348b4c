// What one conversation can hold. An import checks the same figures, so whatever Hintline lets a conversation grow to
// (by the person, the agent or an import) it can export and import again.
import { envNumber } from "../env-number.ts";

export const MAX_CONVERSATION_TASKS = 5_000;
export const MAX_CONVERSATION_MESSAGES = 20_000;
/** Room a new turn must find: the person's message, the reply and a compression divider. */
export const MESSAGES_PER_TURN = 3;

/** The largest import body, and so the largest export (HINTLINE_MAX_IMPORT_BYTES, default 32 MiB). */
export function maxImportBytes(): number {
  return envNumber("HINTLINE_MAX_IMPORT_BYTES", 32 * 1024 * 1024);
}
