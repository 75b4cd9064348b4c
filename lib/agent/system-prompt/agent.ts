// A subagent's own part of its system prompt: the instructions of the agent it runs as, right after the base prompt
// (the harness's child: base, the agent's instructions, then the workspace section).
import { escapeWorkspaceText } from "./workspace.ts";
import type { PromptTransformer } from "./types.ts";

export const agentInstructions: PromptTransformer = (sections, context) => {
  if (!context.agent) return sections;
  const text = `# Agent: ${context.agent.id}\n${escapeWorkspaceText(context.agent.instructions.trim())}`;
  return [...sections, { id: "agent", title: "Agent instructions", origin: `agent ${context.agent.id}`, text }];
};
