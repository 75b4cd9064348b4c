// A workspace's token figures for its settings view: what its instructions, memory and knowledge index (KNOWLEDGE.md
// plus the list of the other files) take, in the same tokens and the same layout the system prompt gives them, against
// the workspace budget as a conversation on the server's model gets it (HINTLINE_WORKSPACE_BUDGET, at most a quarter of
// that model's context window).
import { countTokens } from "../agent/token-count.ts";
import { KNOWLEDGE_INDEX_PATH } from "../agent/workspace-changes.ts";
import { listKnowledge } from "../db/knowledge.ts";
import { listMemory } from "../db/memory.ts";
import { budgetWindow, workspaceBudget } from "./system-prompt.ts";
import { type WorkspaceDetails, workspaceDetails } from "./workspaces.ts";

/** `budget` is worked out for `window`, the server's model's context window (a conversation's own setting may differ). */
export type WorkspaceTokens = {
  budget: number;
  window: number;
  instructions: number;
  memory: number;
  knowledgeIndex: number;
};

/** The workspace (with its memory as text) and its token figures (memory uncut: the prompt cuts it to the budget). */
export async function workspaceWithTokens(id: string): Promise<WorkspaceDetails & { tokens: WorkspaceTokens }> {
  const workspace = await workspaceDetails(id);
  const [memory, files] = await Promise.all([listMemory({ workspaceId: id }), listKnowledge({ workspaceId: id })]);
  const index = files.find((f) => f.path === KNOWLEDGE_INDEX_PATH);
  const others = files.filter((f) => f.path !== KNOWLEDGE_INDEX_PATH);
  const listing = others.length ? countTokens(others.map((f) => `- ${f.path} (${f.bytes} bytes)`).join("\n")) : 0;
  return {
    ...workspace,
    tokens: {
      budget: workspaceBudget(),
      window: budgetWindow(),
      instructions: countTokens(workspace.instructions),
      memory: countTokens(memory.map((e) => `- ${e.text}`).join("\n")),
      knowledgeIndex: (index?.tokens ?? 0) + listing,
    },
  };
}
