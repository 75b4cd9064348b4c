// What the workspace tools (memory, knowledge, skills) share: the conversation's workspace, safe result text, and
// the words of a search query.
import { neutralizeHintTags } from "../../agent/hints/neutralize-tags.ts";
import { searchWords } from "../../agent/search-text.ts";
import type { DefinitionScope } from "../skills.ts";
import { getConversation } from "../../db/conversations.ts";
import { DEFAULT_WORKSPACE_ID } from "../../db/workspaces.ts";
import { oneLine } from "./task-format.ts";
import type { OutputToolName, ToolOutput, ToolOutputFields } from "../../tool-output.ts";
import { toolOutput, withCallCount } from "../../agent/tool-result.ts";
import type { ToolContext } from "./tool-context.ts";

export async function workspaceOf(ctx: ToolContext): Promise<string> {
  if (ctx.workspaceId) return ctx.workspaceId;
  return (await getConversation({ id: ctx.conversationId }))?.workspaceId ?? DEFAULT_WORKSPACE_ID;
}

/** Whose skills the conversation sees: its workspace's and its owner's levels (read from the conversation). */
export async function definitionScopeOf(ctx: ToolContext): Promise<DefinitionScope> {
  const conversation = await getConversation({ id: ctx.conversationId });
  return {
    workspaceId: conversation?.workspaceId ?? ctx.workspaceId ?? DEFAULT_WORKSPACE_ID,
    ownerId: conversation?.ownerId ?? null,
  };
}

/** An MCP tool's result: text that can forge none of Hintline's tags, bounded, with the counter. */
export function safeResult(text: string, toolName: string, call: number): string {
  return withCallCount(neutralizeHintTags(text), toolName, call);
}

/** A workspace tool's result, whose text (from memory, knowledge, skills) can forge none of Hintline's tags. */
export function safeOutput<N extends OutputToolName>(
  toolName: N,
  call: number,
  text: string,
  fields: ToolOutputFields[N],
): ToolOutput<N> {
  return toolOutput(toolName, call, neutralizeHintTags(text), fields);
}

/** A stored value shown on one line of a result, cut to `max` characters. */
export function shownLine(text: string, max = 300): string {
  const line = oneLine(text);
  return line.length > max ? `${line.slice(0, max)}… (${line.length} characters)` : line;
}

export const MAX_QUERY_WORDS = 16;

/** The lower-cased words (letters and digits) of a tool's query, at most MAX_QUERY_WORDS. */
export const queryWords = (query: string): string[] => searchWords(query, MAX_QUERY_WORDS);
