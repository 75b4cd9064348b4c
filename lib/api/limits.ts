// What one conversation can hold. An import checks the same figures, so whatever Hintline lets a conversation grow to
// (by the person, the agent or an import) it can export and import again.
export { maxImportBytes } from "./body-limits.mjs";

export const MAX_CONVERSATION_TASKS = 5_000;
export const MAX_CONVERSATION_MESSAGES = 20_000;
/** Room a new turn must find: the person's message, the reply and a compression divider. */
export const MESSAGES_PER_TURN = 3;

/** Messages a conversation's queue may hold at once (steers and after-reply messages together, not yet delivered). */
export const MAX_QUEUED_MESSAGES = 20;
