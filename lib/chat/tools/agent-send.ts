import { tool } from "ai";
import { z } from "zod";
import { DEFAULT_TIMEOUT_SECONDS } from "../subagent-runs.ts";
import { childLine, hostOf, runOutput, slotsLine, timeoutSecondsSchema } from "./agent-support.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";
import { textForModel, ToolError } from "../../agent/tool-result.ts";

const agentSendInput = z
  .object({
    agent_key: z
      .string()
      .max(100)
      .optional()
      .describe('The agent_key an AgentSpawn result began with, e.g. "agent:general-purpose:1"'),
    label: z.string().max(80).optional().describe("Or the label it was spawned with"),
    message: z
      .string()
      .min(1)
      .max(20_000)
      .describe("The follow-up: a question about its answer, or more work in the same context"),
    timeout_seconds: timeoutSecondsSchema,
  })
  .refine((v) => (v.agent_key === undefined) !== (v.label === undefined), {
    message: "send agent_key or label (one of them)",
  });
const EXAMPLE = '{"agent_key": "agent:general-purpose:1", "message": "Which file said that?"}';

export function agentSendTool(ctx: ToolContext) {
  return tool({
    description:
      "Send a follow-up message to a subagent of this conversation that has finished (by its agent_key or label): it answers in its own context, which still holds its earlier work. Returns its answer, headed by its agent_key.",
    inputSchema: lenientInputSchema(agentSendInput),
    execute: async (raw, options) => {
      const toolName = "AgentSend";
      const call = ctx.nextCallNumber(toolName);
      const input = parseToolInput(agentSendInput, raw, { toolName, call, example: EXAMPLE });
      const host = hostOf(ctx, toolName, call, raw);
      const children = await host.children();
      const matches =
        input.agent_key !== undefined
          ? children.filter((c) => c.agentKey === input.agent_key)
          : children.filter((c) => c.run.label === input.label);
      const known = children.length
        ? `This conversation's agents:\n${children
            .slice(-20)
            .map((c) => childLine(c))
            .join("\n")}`
        : "This conversation has no agents yet.";
      if (matches.length !== 1) {
        const what =
          input.agent_key !== undefined
            ? `the agent_key "${input.agent_key.slice(0, 100)}"`
            : `the label "${(input.label ?? "").slice(0, 80)}"`;
        const text =
          matches.length === 0
            ? `AgentNotFoundError: No agent of this conversation has ${what}. ${known}`
            : `AmbiguousAgentError: ${matches.length} agents of this conversation have ${what}. ${known}`;
        throw new ToolError({
          type: matches.length ? "AmbiguousAgentError" : "AgentNotFoundError",
          text,
          args: raw,
          advice: "Use an agent_key from the list (or spawn a new agent).",
          toolName,
          call,
        });
      }
      const child = matches[0]!;
      if (child.status === "running") {
        const text = `AgentBusyError: ${child.agentKey} is still running; it takes a message only once it has answered.`;
        const advice = "Wait for its answer (a system reminder, or AgentList), then send the follow-up.";
        throw new ToolError({ type: "AgentBusyError", text, args: raw, advice, toolName, call });
      }
      const timeout = input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
      const sent = await host.send(child, input.message, timeout === 0, options.toolCallId);
      if (sent === "running" || "busy" in sent) {
        const text =
          sent === "running"
            ? `AgentBusyError: ${child.agentKey} is already running again.`
            : `AgentSlotsError: ${sent.busy} agents are running, the most at once. ${slotsLine(sent.busy)}`;
        throw new ToolError({
          type: sent === "running" ? "AgentBusyError" : "AgentSlotsError",
          text,
          args: raw,
          advice: "Wait for a running agent to finish, then try again.",
          toolName,
          call,
        });
      }
      const running = (await host.children()).filter((c) => c.status === "running").length;
      const key = child.agentKey;
      if (timeout === 0) return runOutput(toolName, call, { key, waited: "background", timeoutSeconds: 0, running });
      const waited = await host.wait(child.id, sent.ended, timeout, options.abortSignal);
      return runOutput(toolName, call, { key, waited, timeoutSeconds: timeout, running });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
