// Memory that outlives a conversation. While a compression summarises, and when a conversation ends (idle, or archived:
// lib/chat/conversation-end-memory.ts), one small call to the model proposes at most five durable facts from the
// person's and the agent's own words not offered before (never a tool's input or result, a hint, an attachment or a
// subagent's answer: lib/agent/compression-memory.ts picks the words and reads the answer); they join the workspace's
// memory as the system's, each with the conversation and whose words it came from, deduplicated and within its limit,
// and other conversations hear of them through the Workspace hint. The conversation's mark (lib/db/memory-marks.ts)
// says which messages were offered, so none is offered twice. Off per workspace (settings.memory.fromCompression), for
// a subagent's conversation (no person in it) and where the owner may not change the workspace. The call is bounded
// (HINTLINE_MEMORY_FACTS_TIMEOUT_MS) and its failure is logged at warn: it never fails the compression, and the words
// stay unoffered.
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
import type { ChatMessage, CompressionMemory } from "../chat-message.ts";
import { addMemoryEntryUnless, type MemoryEntry } from "../db/memory.ts";
import { advanceMemoryMark, firstMessageFrom, getMemoryMark } from "../db/memory-marks.ts";
import { findMessagePosition } from "../db/messages.ts";
import { bumpWorkspaceRevision } from "../db/workspace-views.ts";
import { envNumber } from "../env-number.ts";
import { log, logFailure } from "../log/logger.ts";
import { ownerMayEditWorkspace } from "./workspace-access.ts";
import { workspaceSettingsOf } from "./workspaces.ts";
import { promptCacheOptions } from "../ai/prompt-cache-key.ts";

const DEFAULT_TIMEOUT_MS = 20_000;
const factsTimeoutMs = () => envNumber("HINTLINE_MEMORY_FACTS_TIMEOUT_MS", DEFAULT_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;

/** The facts a call proposed, waiting to be stored; `from`: the conversation's mark when the words were picked. */
export type ProposedFacts = { workspaceId: string; from: number; facts: ProposedFact[]; failed: boolean };

/**
 * Whether the system keeps durable facts from `ownerId`'s conversations in the workspace: its switch
 * (settings.memory.fromCompression) is on and the owner may change the workspace (a member of a shared one may not).
 */
export async function workspaceKeepsFacts({
  workspaceId,
  ownerId,
}: {
  workspaceId: string;
  ownerId: string | null;
}): Promise<boolean> {
  const settings = await workspaceSettingsOf(workspaceId);
  return settings?.memory.fromCompression === true && ownerMayEditWorkspace({ ownerId, workspaceId });
}

/**
 * Whether a conversation's words may become its workspace's memory: a person's conversation (a subagent's has no
 * person in it: its words reach the parent as a tool result or an unverified frame) where the workspace keeps facts.
 */
export async function keepsFactsFor(conversation: {
  workspaceId: string;
  ownerId: string | null;
  parentId: string | null;
}): Promise<boolean> {
  return conversation.parentId === null && workspaceKeepsFacts(conversation);
}

/** Where a compression of this conversation may keep facts, with its mark; null when it may not (no call is made). */
export async function factsTarget(conversationId: string): Promise<{ workspaceId: string; from: number } | null> {
  const mark = await getMemoryMark({ id: conversationId });
  if (!mark || !(await keepsFactsFor(mark))) return null;
  return { workspaceId: mark.workspaceId, from: mark.memoryFrom };
}

/**
 * What a compression offers for durable facts: the messages of `history` from the first one at or after the mark up to
 * the end of `summarized` (the part being summarised, a slice of `history`) — so words a compression whose facts call
 * failed left unoffered are offered now. When that first message is not in `history` (gone with a branch), the part.
 */
export async function notYetOffered(
  conversationId: string,
  history: readonly ChatMessage[],
  summarized: readonly ChatMessage[],
  from: number,
): Promise<readonly ChatMessage[]> {
  const last = summarized.at(-1);
  if (!last) return [];
  const firstId = from === 0 ? (history[0]?.id ?? null) : await firstMessageFrom({ conversationId, position: from });
  // Nothing at or after the mark: every message was offered.
  if (firstId === null) return [];
  const start = history.findIndex((m) => m.id === firstId);
  const end = history.findIndex((m) => m.id === last.id) + 1;
  if (start < 0 || end <= 0) return summarized;
  return start < end ? history.slice(start, end) : [];
}

/**
 * Asks the model for the durable facts of `lines` (the person's and the agent's words, marked; the newest that fit
 * half the window). Never throws: a failure or a timeout is logged and proposes nothing.
 */
export async function proposeFacts({
  conversationId,
  workspaceId,
  from,
  model,
  contextWindow,
  lines,
  when,
}: {
  conversationId: string;
  workspaceId: string;
  from: number;
  model: LanguageModel;
  contextWindow: number;
  lines: readonly string[];
  when: "compression" | "end";
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
      providerOptions: promptCacheOptions(conversationId),
      abortSignal: AbortSignal.timeout(factsTimeoutMs()),
    });
    return { workspaceId, from, facts: parseProposedFacts(result.text), failed: false };
  } catch (error) {
    const what = when === "compression" ? "at a compression" : "at a conversation's end";
    logFailure(`proposing durable facts ${what} failed; none are stored`, { conversationId, workspaceId })(error);
    return { workspaceId, from, facts: [], failed: true };
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
    logFailure("storing durable facts failed", { conversationId, workspaceId })(error);
  }
  return outcome;
}

/**
 * Stores a compression's facts once it is stored, moving the mark past what it summarised (up to `keptFromId`, the
 * first message kept). A failed call moves nothing (the words stay for the conversation's end); when the mark moved
 * meanwhile (the conversation ended and its words were offered), the facts are not stored twice.
 */
export async function rememberCompressionFacts(
  conversationId: string,
  proposed: ProposedFacts,
  keptFromId: string,
): Promise<CompressionMemory> {
  if (!proposed.failed) {
    const kept = await findMessagePosition({ conversationId, id: keptFromId });
    const to = kept?.position ?? proposed.from;
    if (to > proposed.from && !(await advanceMemoryMark({ id: conversationId, from: proposed.from, to }))) {
      log().info({ conversationId }, "a compression's durable facts were offered by the conversation's end meanwhile");
      return { workspaceId: proposed.workspaceId, stored: [], duplicates: proposed.facts.length, full: 0 };
    }
  }
  return rememberFacts(conversationId, proposed);
}
