// A workspace's token figures for its settings view: what its instructions, memory and knowledge index (KNOWLEDGE.md
// plus the list of the other files) take, in the same tokens and the same layout the system prompt gives them, against
// the workspace budget.
import { DEFAULT_WORKSPACE_BUDGET } from "../agent/system-prompt/assemble.ts";
import { countTokens } from "../agent/token-count.ts";
import { listKnowledge } from "../db/knowledge.ts";
import { listMemory } from "../db/memory.ts";
import type { Workspace } from "../db/workspaces.ts";
import { envNumber } from "../env-number.ts";
import { requireWorkspace } from "./workspaces.ts";

export type WorkspaceTokens = { budget: number; instructions: number; memory: number; knowledgeIndex: number };

export const KNOWLEDGE_INDEX_FILE = "KNOWLEDGE.md";

export function workspaceBudget(): number {
  return Math.floor(envNumber("HINTLINE_WORKSPACE_BUDGET", DEFAULT_WORKSPACE_BUDGET)) || DEFAULT_WORKSPACE_BUDGET;
}

/** The workspace with its token figures (memory uncut: the prompt cuts it to what the budget leaves). */
export async function workspaceWithTokens(id: string): Promise<Workspace & { tokens: WorkspaceTokens }> {
  const workspace = await requireWorkspace(id);
  const [memory, files] = await Promise.all([listMemory({ workspaceId: id }), listKnowledge({ workspaceId: id })]);
  const index = files.find((f) => f.path === KNOWLEDGE_INDEX_FILE);
  const others = files.filter((f) => f.path !== KNOWLEDGE_INDEX_FILE);
  const listing = others.length ? countTokens(others.map((f) => `- ${f.path} (${f.bytes} bytes)`).join("\n")) : 0;
  return {
    ...workspace,
    tokens: {
      budget: workspaceBudget(),
      instructions: countTokens(workspace.instructions),
      memory: countTokens(memory.map((e) => `- ${e.text}`).join("\n")),
      knowledgeIndex: (index?.tokens ?? 0) + listing,
    },
  };
}
