// Subagents, the pure rules: the built-in agent, what an agent key looks like, and which definition a workspace sees
// (its owner's own over its own over default's over the built-in). No storage, no framework.

/** An agent definition as a workspace holds it (`tools` absent: the child's default tools). */
export type AgentDefinitionData = { id: string; description: string; instructions: string; tools?: string[]; model?: string };

export type AgentOrigin = "user" | "workspace" | "default" | "built-in";

/** One level of definitions a conversation sees, given highest precedence first. */
export type AgentLevel = { origin: Exclude<AgentOrigin, "built-in">; agents: readonly AgentDefinitionData[] };

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
 * Every agent a conversation sees, by id: the levels in the order given (its owner's own, its workspace's, default's),
 * then the built-in general-purpose; the first of an id wins. Sorted by id.
 */
export function visibleAgents(levels: readonly AgentLevel[]): VisibleAgent[] {
  const byId = new Map<string, VisibleAgent>();
  for (const { origin, agents } of levels) for (const agent of agents) if (!byId.has(agent.id)) byId.set(agent.id, { ...agent, origin });
  if (!byId.has(GENERAL_PURPOSE_AGENT_ID)) byId.set(GENERAL_PURPOSE_AGENT_ID, { ...GENERAL_PURPOSE_AGENT, origin: "built-in" });
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

export const SUBAGENTS_HINT_SOURCE = { label: "System", sublabel: "Subagents" } as const;
/** Finished children one hint tells at most; the rest come with the next step's. */
export const SUBAGENTS_PER_HINT = 10;

export type FinishedChild = { agentKey: string; label?: string; status: string; answer: string; error?: string };

const oneLineOf = (text: string) => text.replace(/[\r\n\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]+/g, " ").trim();

/**
 * The "System · Subagents" reminder for children that finished in the background (at most SUBAGENTS_PER_HINT; `more`
 * still wait), each answer cut to share the hint's room, with a note on how to read the rest. `neutralize` neutralises
 * the answers' text (no answer can close or forge a tag). Stays within `maxChars`.
 */
export function renderSubagentsHint(
  finished: readonly FinishedChild[],
  { more, running, maxRunning, maxChars, neutralize }: { more: number; running: number; maxRunning: number; maxChars: number; neutralize: (text: string) => string },
): { fields: Record<string, string>; text: string } {
  const open = "<system-reminder>\n";
  const close = "\n</system-reminder>";
  const head = `${finished.length === 1 ? "A subagent" : `${finished.length} subagents`} you started finished in the background; ${finished.length === 1 ? "its answer is" : "their answers are"} below (in no tool result):`;
  const tail = [
    ...(more > 0 ? [`- … and ${more} more: call AgentList (their answers come in your next reminder).`] : []),
    `Slots: ${running} of ${maxRunning} agents running in this conversation, ${Math.max(0, maxRunning - running)} free.`,
  ].join("\n");
  const lines = finished.map((child) => {
    const label = child.label ? ` "${neutralize(oneLineOf(child.label)).slice(0, 80)}"` : "";
    const error = child.error ? ` (${neutralize(oneLineOf(child.error)).slice(0, 200)})` : "";
    return { head: `- ${child.agentKey}${label} — ${child.status}${error}:`, answer: neutralize(child.answer.trim()) || "(no text)", key: child.agentKey };
  });
  const fixed = open.length + head.length + tail.length + close.length + 2 + lines.reduce((n, l) => n + l.head.length + 2, 0);
  const room = Math.max(80, Math.floor((maxChars - fixed) / Math.max(1, lines.length)) - 1);
  const body = lines.map(({ head: line, answer, key }) => {
    if (answer.length <= room) return `${line}\n${answer}`;
    const note = `\n[… ${answer.length} characters in all: read the rest with AgentSend (agent_key ${key}).]`;
    return `${line}\n${answer.slice(0, Math.max(0, room - note.length))}${note}`;
  });
  const text = `${open}${[head, ...body, tail].join("\n").slice(0, maxChars - open.length - close.length)}${close}`;
  const statuses = finished.map((c) => `${c.agentKey} ${c.status}`).join(", ");
  return { fields: { agents: more > 0 ? `${statuses}, +${more}` : statuses }, text };
}
