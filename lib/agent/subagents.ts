// Subagents, the pure rules: the built-in agent, what an agent key looks like, and which definition a workspace sees
// (its own over default's over the built-in). No storage, no framework.

/** An agent definition as a workspace holds it (`tools` absent: the child's default tools). */
export type AgentDefinitionData = { id: string; description: string; instructions: string; tools?: string[]; model?: string };

export type AgentOrigin = "workspace" | "default" | "built-in";

export type VisibleAgent = AgentDefinitionData & { origin: AgentOrigin };

export const GENERAL_PURPOSE_AGENT_ID = "general-purpose";

/** Exists in every workspace unless one is defined with its id. */
export const GENERAL_PURPOSE_AGENT: AgentDefinitionData = {
  id: GENERAL_PURPOSE_AGENT_ID,
  description: "A general-purpose helper: researches a question or does one self-contained piece of work, then reports back.",
  instructions: [
    "You are a helper agent. Another agent gave you one task; the person watches your work but does not talk to you.",
    "Do the task with the tools you have, then answer with the result itself: complete, concise, and ready to use without your transcript (facts found, with where they came from; what you did; what is left open).",
    "Do not ask questions back: when something is unclear, choose the most reasonable reading, say which one you chose, and go on.",
  ].join("\n"),
};

/** "agent:<agent_id>:<n>", n counting that agent's children in one conversation from 1. */
export const agentKeyOf = (agentId: string, n: number): string => `agent:${agentId}:${n}`;

const AGENT_KEY = /^agent:([a-z0-9]+(?:-[a-z0-9]+)*):([1-9][0-9]{0,8})$/;

/** The agent id and number of a well-formed key, or undefined. */
export function parseAgentKey(key: string): { agentId: string; n: number } | undefined {
  const match = AGENT_KEY.exec(key);
  return match ? { agentId: match[1]!, n: Number(match[2]) } : undefined;
}

/**
 * Every agent a conversation of a workspace sees, by id: its own (`own`), then default's (`shared`, empty in default
 * itself), then the built-in general-purpose; the first of an id wins. Sorted by id.
 */
export function visibleAgents(own: readonly AgentDefinitionData[], shared: readonly AgentDefinitionData[]): VisibleAgent[] {
  const byId = new Map<string, VisibleAgent>();
  for (const agent of own) if (!byId.has(agent.id)) byId.set(agent.id, { ...agent, origin: "workspace" });
  for (const agent of shared) if (!byId.has(agent.id)) byId.set(agent.id, { ...agent, origin: "default" });
  if (!byId.has(GENERAL_PURPOSE_AGENT_ID)) byId.set(GENERAL_PURPOSE_AGENT_ID, { ...GENERAL_PURPOSE_AGENT, origin: "built-in" });
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}
