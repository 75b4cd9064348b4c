// OpenAI routes a prompt to the cache that holds its prefix by `prompt_cache_key` (with the prefix's hash): every call
// of one conversation carries the conversation's id, so its calls land where its prefix is cached, and a subagent's
// carry its own conversation's. Ids are at most 64 characters of [A-Za-z0-9_-] (lib/api/schemas.ts), as OpenAI takes
// them. Other providers ignore the `openai` options; OpenAI-compatible servers ignore the unknown field.
import type { SharedV4ProviderOptions } from "@ai-sdk/provider";

/** The provider options that key a call's prompt cache by its conversation. */
export function promptCacheOptions(conversationId: string): SharedV4ProviderOptions {
  return { openai: { promptCacheKey: conversationId } };
}
