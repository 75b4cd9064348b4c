// The system prompt is assembled from sections by an ordered chain of small pure transformers.

/** A workspace as a conversation's system prompt holds it (frozen when the conversation first replied). */
export type WorkspaceSnapshot = {
  name: string;
  instructions: string;
  /** Memory entries, oldest first. */
  memory: readonly string[];
  /** KNOWLEDGE.md, injected whole (empty when there is none). */
  knowledgeIndex: string;
  /** Every other knowledge file. */
  files: ReadonlyArray<{ path: string; bytes: number }>;
  /** Visible skills (the workspace's over default's of the same name), by name. */
  skills: ReadonlyArray<{ name: string; description: string }>;
  /** Agents a conversation can spawn (its own, default's, the built-in), by id; absent in a copy frozen before them. */
  agents?: ReadonlyArray<{ id: string; description: string }>;
  /**
   * Whether the system keeps durable facts from the owner's conversations here (the memory section then says so);
   * absent in a copy frozen before it was kept (the section says nothing of it, as it did).
   */
  keepsFacts?: boolean;
};

export type PromptSection = {
  id: string;
  title: string;
  /** Where the text came from (shown in the inspector): "default", "conversation settings", "global default", … */
  origin: string;
  text: string;
};

export type PromptContext = {
  /** Per-conversation parts (settings.prompt); empty strings count as unset. */
  conversation: { base?: string; instructions?: string; memory?: string };
  /** Global defaults (HINTLINE_BASE_PROMPT / HINTLINE_INSTRUCTIONS / HINTLINE_MEMORY). */
  defaults: { base?: string; instructions?: string; memory?: string };
  taskToolNames: readonly string[];
  /**
   * The one token budget of the budgeted sections: the Subagents section, the workspace section, the settings
   * instructions and memory, and the skills list (lib/agent/system-prompt/budget.ts, `promptBudget`).
   */
  workspaceBudget: number;
  countTokens: (text: string) => number;
  /** The conversation's workspace as its system prompt was frozen; none adds no workspace sections. */
  workspace?: WorkspaceSnapshot;
  /** A subagent's conversation: the agent it runs as (its instructions follow the base prompt). */
  agent?: { id: string; instructions: string };
  /**
   * Whether the conversation may spawn agents (false: a subagent at the maximum depth, offered no agent tools): false
   * leaves the Subagents section out. Unset: it may.
   */
  spawns?: boolean;
  /**
   * The guidance in brief (the task guidance, the workspace's and the Subagents section's): a small window's fixed
   * part, whose tools are compact too (lib/agent/fixed-part.ts). Unset: whole.
   */
  compact?: boolean;
  /** How much of each budgeted part the sections hold (set by assembleSystemPrompt); none: all of every part. */
  cuts?: PromptCuts;
};

/**
 * How much of each budgeted part the system prompt holds, in the part's own units. Listed in the cut order: the first
 * is cut first when the budgeted sections exceed the budget, the last (the instructions) only when nothing else is
 * left to cut.
 */
export type PromptCuts = {
  /** Workspace memory entries kept, oldest first. */
  memory: number;
  /** Tokens of the settings memory kept. */
  settingsMemory: number;
  /** Lines of KNOWLEDGE.md kept. */
  knowledge: number;
  /** The skills list: the first `n` names when `n` ≤ skills, else every name and the first `n − skills` descriptions. */
  skills: number;
  /** Agent ids the Subagents section lists (with their descriptions), in order. */
  agents: number;
  /** Knowledge files listed. */
  files: number;
  /** Tokens of the workspace instructions kept. */
  instructions: number;
  /** Tokens of the settings instructions kept. */
  settingsInstructions: number;
};

export type PromptTransformer = (sections: PromptSection[], context: PromptContext) => PromptSection[];
