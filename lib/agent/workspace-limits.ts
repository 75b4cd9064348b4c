// What a workspace can hold. The API, the agent's tools and docs/api.md state the same figures.
export const MAX_WORKSPACES = 100;
export const MAX_WORKSPACE_NAME_CHARS = 64;
export const MAX_INSTRUCTIONS_CHARS = 50_000;
export const MAX_MEMORY_ENTRIES = 1_000;
export const MAX_MEMORY_ENTRY_CHARS = 1_000;
/** 1 MiB of UTF-8 per knowledge file. */
export const MAX_KNOWLEDGE_FILE_BYTES = 1024 * 1024;
export const MAX_KNOWLEDGE_FILES = 200;
export const MAX_KNOWLEDGE_PATH_CHARS = 255;
export const MAX_SKILLS = 100;
export const MAX_SKILL_NAME_CHARS = 64;
export const MAX_SKILL_DESCRIPTION_CHARS = 300;
export const MAX_SKILL_INSTRUCTIONS_CHARS = 50_000;
export const MAX_AGENTS = 100;
export const MAX_AGENT_ID_CHARS = 64;
export const MAX_AGENT_DESCRIPTION_CHARS = 300;
export const MAX_AGENT_INSTRUCTIONS_CHARS = 50_000;
export const MAX_AGENT_TOOLS = 50;
