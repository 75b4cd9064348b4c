// Memory that outlives a compression. While a compression summarises, one small call to the same model proposes at
// most five durable facts from the person's and the agent's own words in the part being summarised (never a tool's
// input or result, a hint, an attachment or a subagent's answer: lib/agent/compression-memory.ts picks the words and
// reads the answer); once the compression is stored they join the workspace's memory as the system's, each with the
// conversation and whose words it came from, deduplicated and within its limit, and other conversations hear of them
// through the Workspace hint. Off per workspace (settings.memory.fromCompression), for a subagent's conversation (no
// person in it) and where the owner may not change the workspace. The call is bounded
// (HINTLINE_MEMORY_FACTS_TIMEOUT_MS) and its failure is logged at warn: it never fails the compression.
import { generateId, generateText, type LanguageModel } from "ai";
import {
  freshFacts,
  MAX_COMPRESSION_FACTS,
  MAX_FACT_CHARS,
  MEMORY_FACTS_INSTRUCTIONS,
  memoryFactsPrompt,
  newestLinesWithin,
  type ProposedFact,
  parseProposedFacts,
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
export type ProposedFacts = { workspaceId: string; facts: ProposedFact[]; failed: boolean };

/**
 * Whether a conversation's words may become its workspace's memory: a person's conversation (a subagent's has no
 * person in it: its words reach the parent as a tool result or an unverified frame), in a workspace that keeps facts
 * (settings.memory.fromCompression), which its owner may change (a member in a shared workspace may not).
 */
export async function keepsFactsFor(conversation: {
  workspaceId: string;
  ownerId: string | null;
  parentId: string | null;
}): Promise<boolean> {
  if (conversation.parentId !== null) return false;
  const settings = await workspaceSettingsOf(conversation.workspaceId);
  if (!settings?.memory.fromCompression) return false;
  return ownerMayEditWorkspace({ ownerId: conversation.ownerId, workspaceId: conversation.workspaceId });
}

/** The workspace a compression of this conversation may add facts to; null when it may not (no call is made). */
export async function factsTarget(conversationId: string): Promise<string | null> {
  const conversation = await getConversation({ id: conversationId });
  return conversation && (await keepsFactsFor(conversation)) ? conversation.workspaceId : null;
}

/**
 * Asks the model for the durable facts of `lines` (the person's and the agent's words, marked; the newest that fit
 * half the window). Never throws: a failure or a timeout is logged and proposes nothing.
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
      // Five facts of at most MAX_FACT_CHARS characters with their sources, as JSON.
      maxOutputTokens: Math.ceil((MAX_COMPRESSION_FACTS * (MAX_FACT_CHARS + 40)) / 3),
      maxRetries: 0,
      // Says what the call is for (a provider ignores it; the test fake keeps these calls apart).
      headers: { "x-hintline-purpose": "memory" },
      abortSignal: AbortSignal.timeout(factsTimeoutMs()),
    });
    return { workspaceId, facts: parseProposedFacts(result.text), failed: false };
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
    for (const { text, source } of facts) {
      const added = await addMemoryEntryUnless(
        {
          workspaceId,
          id: `mem_${generateId()}`,
          text,
          author: "system",
          conversationId,
          ...(source ? { source } : {}),
        },
        (entries: MemoryEntry[]) => {
          if (
            freshFacts(
              [text],
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
