// The "# Subagents" section (the harness's SubagentsMiddleware): the agent tools, the agent ids a conversation can
// spawn with their descriptions, and when to delegate. A top-level section right after the base prompt (and a child's
// agent instructions), where the harness's chain puts it, first of its middlewares. Assembled from the frozen
// workspace like the skills list, so a definition added later reaches a running conversation as a Workspace hint,
// never by rewriting its system prompt. It is inside the one budget (budget.ts: the agent ids are cut, with a note),
// and left out of a conversation that cannot spawn (a subagent at the maximum depth, which has no agent tools either).
import type { PromptTransformer } from "./types.ts";
import { escapeWorkspaceText, oneLine } from "./workspace.ts";

/** Agent ids listed at most; the rest are counted (AgentList lists every id). */
export const SUBAGENTS_LISTED = 30;

export const SUBAGENT_GUIDANCE = [
  "# Subagents",
  "You can delegate a task to a subagent: a helper that works in a conversation of its own, with its own context and tools, and answers once. The person sees it work.",
  "## Agent Tools",
  "- AgentSpawn { agent_id, task, label?, timeout_seconds? }: start an agent on a task. Its answer comes back as the result, headed by `agent_key: agent:<agent_id>:<n>`. It waits up to 30 s by default (at most 600); past that the agent goes on in the background and its answer arrives later as a system reminder; timeout_seconds 0 starts it in the background at once. Several AgentSpawn calls in one step run in parallel.",
  "- AgentSend { agent_key | label, message, timeout_seconds? }: a follow-up to an agent that has answered, in its own context.",
  "- AgentList {}: your agents, their status, and the free slots (at most 4 run at once).",
].join("\n");

export const WHEN_TO_DELEGATE = [
  "## When to delegate",
  "Delegate work that is self-contained and would fill your context: reading or searching many files, a long analysis whose result is short, independent parts that can run in parallel. The agent sees nothing of this conversation, so put everything it needs in the task.",
  "Do not delegate a step you can do in one or two tool calls, anything that needs the person or this conversation's history, or the whole request while you wait idle.",
].join("\n");

/** The section's guidance in brief (a small window's fixed part). */
export const COMPACT_SUBAGENT_GUIDANCE = [
  "# Subagents",
  "AgentSpawn { agent_id, task } runs a self-contained task on a subagent, which sees nothing of this conversation (put all it needs in the task), and returns its answer; AgentSend follows up on it, AgentList lists them. Do not delegate what one or two tool calls can do.",
].join("\n");

/** The agent ids as the section lists them (at most SUBAGENTS_LISTED): the units the budget cuts. */
export function agentLines(agents: ReadonlyArray<{ id: string; description: string }>): string[] {
  return agents
    .slice(0, SUBAGENTS_LISTED)
    .map((a) => `- ${escapeWorkspaceText(oneLine(a.id))}: ${escapeWorkspaceText(oneLine(a.description))}`);
}

export const subagentsSection: PromptTransformer = (sections, context) => {
  const agents = context.workspace?.agents ?? [];
  if (agents.length === 0 || context.spawns === false) return sections;
  const all = agentLines(agents);
  const keep = Math.max(0, Math.min(all.length, context.cuts?.agents ?? all.length));
  const lines = all.slice(0, keep);
  if (keep < all.length)
    lines.push(`[Agent ids cut to the budget: ${keep} of ${agents.length} listed. AgentList lists every agent id.]`);
  else if (agents.length > SUBAGENTS_LISTED)
    lines.push(`- … and ${agents.length - SUBAGENTS_LISTED} more: AgentList lists every agent id.`);
  const text = context.compact
    ? `${COMPACT_SUBAGENT_GUIDANCE}\n## Available agent ids\n${lines.join("\n")}`
    : `${SUBAGENT_GUIDANCE}\n## Available agent ids\n${lines.join("\n")}\n${WHEN_TO_DELEGATE}`;
  return [
    ...sections,
    { id: "subagents", title: "Subagents", origin: `workspace ${oneLine(context.workspace!.name)}`, text },
  ];
};
