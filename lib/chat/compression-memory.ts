// Memory that outlives a compression. While a compression summarises, one small call to the same model proposes at
// most five durable facts from the part being summarised (lib/agent/compression-memory.ts reads its answer); once the
// compression is stored they join the workspace's memory as the system's, deduplicated and within its limit, and other
// conversations hear of them through the Workspace hint. Off per workspace (settings.memory.fromCompression). The call
// is bounded (HINTLINE_MEMORY_FACTS_TIMEOUT_MS) and its failure is logged at warn: it never fails the compression.
import { generateId, generateText, type LanguageModel } from "ai";
import {
  freshFacts,
  MAX_COMPRESSION_FACTS,
  MAX_FACT_CHARS,
  MEMORY_FACTS_INSTRUCTIONS,
  memoryFactsPrompt,
  newestLinesWithin,
  parseMemoryFacts,
} from "../agent/compression-memory.ts";
import { countTokens } from "../agent/token-count.ts";
import { MAX_MEMORY_ENTRIES } from "../agent/workspace-limits.ts";
import type { CompressionMemory } from "../chat-message.ts";
import { getConversation } from "../db/conversations.ts";
import { addMemoryEntryUnless, type MemoryEntry } from "../db/memory.ts";
import { bumpWorkspaceRevision } from "../db/workspace-views.ts";
import { envNumber } from "../env-number.ts";
import { logFailure } from "../log/logger.ts";
import { ownerMayEditWorkspace } from "./workspace-access.ts";
import { workspaceSettingsOf } from "./workspaces.ts";

const DEFAULT_TIMEOUT_MS = 20_000;
const factsTimeoutMs = () => envNumber("HINTLINE_MEMORY_FACTS_TIMEOUT_MS", DEFAULT_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;

/** The facts a compression proposed, waiting for the compression to be stored. */
export type ProposedFacts = { workspaceId: string; facts: string[]; failed: boolean };

/**
 * The workspace a compression of this conversation may add facts to, or null when that is off, when it has none, or
 * when the conversation's owner may not change it (a member in a shared workspace: then no facts are even asked for).
 */
export async function factsTarget(conversationId: string): Promise<string | null> {
  const conversation = await getConversation({ id: conversationId });
  if (!conversation) return null;
  const settings = await workspaceSettingsOf(conversation.workspaceId);
  if (!settings?.memory.fromCompression) return null;
  return (await ownerMayEditWorkspace({ ownerId: conversation.ownerId, workspaceId: conversation.workspaceId }))
    ? conversation.workspaceId
    : null;
}

/**
 * Asks the model for the durable facts of `lines` (the transcript of the part being summarised; the newest lines that
 * fit half the window). Never throws: a failure or a timeout is logged and proposes nothing.
 */
export async function proposeFacts({
  conversationId,
  workspaceId,
  model,
  contextWindow,
  lines,
}: {
  conversationId: string;
  workspaceId: string;
  model: LanguageModel;
  contextWindow: number;
  lines: readonly string[];
}): Promise<ProposedFacts> {
  try {
    const transcript = newestLinesWithin(lines, Math.floor(contextWindow * 0.5), countTokens);
    const result = await generateText({
      model,
      instructions: MEMORY_FACTS_INSTRUCTIONS,
      messages: [{ role: "user", content: memoryFactsPrompt(transcript) }],
      // Five facts of at most MAX_FACT_CHARS characters, as JSON.
      maxOutputTokens: Math.ceil((MAX_COMPRESSION_FACTS * MAX_FACT_CHARS) / 3),
      maxRetries: 0,
      // Says what the call is for (a provider ignores it; the test fake keeps these calls apart).
      headers: { "x-hintline-purpose": "memory" },
      abortSignal: AbortSignal.timeout(factsTimeoutMs()),
    });
    return { workspaceId, facts: parseMemoryFacts(result.text), failed: false };
  } catch (error) {
    logFailure("proposing durable facts at a compression failed; none are stored", { conversationId, workspaceId })(
      error,
    );
    return { workspaceId, facts: [], failed: true };
  }
}

/**
 * Stores the proposed facts as the system's memory entries (each checked under the workspace's memory lock: a fact the
 * memory holds is skipped, and so is one over the entry limit), and says what it did, for the compression chip.
 */
export async function rememberFacts(conversationId: string, proposed: ProposedFacts): Promise<CompressionMemory> {
  const { workspaceId, facts, failed } = proposed;
  const outcome: CompressionMemory = { workspaceId, stored: [], duplicates: 0, full: 0, ...(failed ? { failed } : {}) };
  try {
    for (const fact of facts) {
      const added = await addMemoryEntryUnless(
        { workspaceId, id: `mem_${generateId()}`, text: fact, author: "system", conversationId },
        (entries: MemoryEntry[]) => {
          if (
            freshFacts(
              [fact],
              entries.map((e) => e.text),
            ).duplicates
          )
            return "duplicate" as const;
          if (entries.length >= MAX_MEMORY_ENTRIES) return "full" as const;
          return undefined;
        },
      );
      if ("entry" in added) outcome.stored.push({ id: added.entry.id, text: added.entry.text });
      else if (added.refused === "duplicate") outcome.duplicates++;
      else outcome.full++;
    }
    if (outcome.stored.length) await bumpWorkspaceRevision({ workspaceId });
  } catch (error) {
    // The workspace was deleted meanwhile, or the database failed: the compression stands without its facts.
    logFailure("storing durable facts from a compression failed", { conversationId, workspaceId })(error);
  }
  return outcome;
}
