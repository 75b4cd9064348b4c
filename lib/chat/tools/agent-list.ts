import { tool } from "ai";
import { z } from "zod";
import { MAX_RUNNING_CHILDREN } from "../subagent-runs.ts";
import { childLine, hostOf, slotsLine } from "./agent-support.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";
import { textForModel, toolOutput } from "../../agent/tool-result.ts";

const agentListInput = z.object({});
/** Children listed, newest last; older ones are counted. */
const LISTED = 30;

export function agentListTool(ctx: ToolContext) {
  return tool({
    description:
      "List this conversation's subagents (agent_key, status, label, time, tokens), the free slots, and the agent ids you can spawn.",
    inputSchema: lenientInputSchema(agentListInput),
    execute: async (raw) => {
      const toolName = "AgentList";
      const call = ctx.nextCallNumber(toolName);
      parseToolInput(agentListInput, raw, { toolName, call, example: "{}" });
      const host = hostOf(ctx, toolName, call, raw);
      const [children, agents] = await Promise.all([host.children(), host.agents()]);
      const running = children.filter((c) => c.status === "running").length;
      const lines = [
        children.length ? `Agents of this conversation (${children.length}):` : "This conversation has no agents yet.",
      ];
      if (children.length > LISTED) lines.push(`… ${children.length - LISTED} older ones not shown`);
      lines.push(...children.slice(-LISTED).map((c) => childLine(c)));
      lines.push(slotsLine(running), `Agent ids you can spawn: ${agents.map((a) => a.id).join(", ")}.`);
      return toolOutput(toolName, call, lines.join("\n"), {
        agents: children.length,
        running,
        free: Math.max(0, MAX_RUNNING_CHILDREN - running),
      });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
