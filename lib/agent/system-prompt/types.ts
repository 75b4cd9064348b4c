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
  /** Token budget for the whole workspace section (instructions + memory). */
  workspaceBudget: number;
  countTokens: (text: string) => number;
  /** The conversation's workspace as its system prompt was frozen; none adds no workspace sections. */
  workspace?: WorkspaceSnapshot;
};

export type PromptTransformer = (sections: PromptSection[], context: PromptContext) => PromptSection[];
