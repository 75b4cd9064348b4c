import { tool } from "ai";
import { z } from "zod";
import { DEFAULT_TIMEOUT_SECONDS, maxAgentDepth } from "../subagent-runs.ts";
import { hostOf, runOutput, timeoutSecondsSchema } from "./agent-support.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";
import { textForModel, ToolError } from "../../agent/tool-result.ts";

const agentSpawnInput = z.object({
  agent_id: z
    .string()
    .max(64)
    .describe('The id of the agent to run, from the "## Subagents" section (e.g. "general-purpose")'),
  task: z
    .string()
    .min(1)
    .max(20_000)
    .describe("Everything the agent needs to do the task: it sees nothing of this conversation"),
  label: z
    .string()
    .max(80)
    .regex(/^[^\r\n\u0085\u2028\u2029]*$/, { message: "must be one line" })
    .optional()
    .describe("A short name for this agent's job, shown to the person and usable with AgentSend"),
  timeout_seconds: timeoutSecondsSchema,
});
const EXAMPLE =
  '{"agent_id": "general-purpose", "task": "Find where the release notes mention the API change and summarise them.", "label": "release notes"}';

export function agentSpawnTool(ctx: ToolContext) {
  return tool({
    description:
      "Delegate a self-contained task to a subagent: a helper with its own conversation and context that runs it with its own tools and answers once. Returns its answer, headed by its agent_key. Several AgentSpawn calls in one step run in parallel.",
    inputSchema: lenientInputSchema(agentSpawnInput),
    execute: async (raw, options) => {
      const toolName = "AgentSpawn";
      const call = ctx.nextCallNumber(toolName);
      const input = parseToolInput(agentSpawnInput, raw, { toolName, call, example: EXAMPLE });
      const host = hostOf(ctx, toolName, call, raw);
      const agents = await host.agents();
      const agent = agents.find((a) => a.id === input.agent_id);
      if (!agent) {
        const text = `AgentNotFoundError: There is no agent with the id "${input.agent_id.replace(/\s+/g, " ").slice(0, 64)}". The agent ids are: ${agents.map((a) => a.id).join(", ")}.`;
        throw new ToolError({
          type: "AgentNotFoundError",
          text,
          args: raw,
          advice: "Call AgentSpawn again with one of those ids.",
          toolName,
          call,
        });
      }
      const depth = await host.depth();
      if (depth + 1 > maxAgentDepth()) {
        const text = `AgentDepthError: This conversation is ${depth === 0 ? "a person's conversation" : `a subagent at depth ${depth}`}, and agents may nest at most ${maxAgentDepth()} deep (HINTLINE_MAX_AGENT_DEPTH), so it cannot spawn agents.`;
        throw new ToolError({
          type: "AgentDepthError",
          text,
          args: raw,
          advice: "Do the task yourself with your other tools.",
          toolName,
          call,
        });
      }
      const timeout = input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
      const made = await host.spawn(agent, input.task, input.label, timeout === 0, options.toolCallId);
      if ("busy" in made) {
        const text = `AgentSlotsError: ${made.busy} agents are running in this conversation, the most at once, so no agent was started.`;
        const advice =
          "Wait for one to finish (its answer comes as a system reminder; AgentList shows them), or do this task yourself.";
        throw new ToolError({ type: "AgentSlotsError", text, args: raw, advice, toolName, call });
      }
      const key = made.child.agentKey;
      if (timeout === 0)
        return runOutput(toolName, call, { key, waited: "background", timeoutSeconds: 0, running: made.running });
      const waited = await host.wait(made.child.id, made.ended, timeout, options.abortSignal);
      return runOutput(toolName, call, { key, waited, timeoutSeconds: timeout, running: made.running });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
