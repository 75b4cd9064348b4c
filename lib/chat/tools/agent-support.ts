// What the agent tools (AgentSpawn, AgentSend, AgentList) share: the conversation's subagents, the timeout parameter,
// and how a child's run reads in a result.
import { z } from "zod";
import type { ChildRecord } from "../../db/subagents.ts";
import {
  DEFAULT_TIMEOUT_SECONDS,
  MAX_RUNNING_CHILDREN,
  MAX_TIMEOUT_SECONDS,
  type SubagentHost,
  type WaitResult,
} from "../subagent-runs.ts";
import { oneLine } from "./task-format.ts";
import type { AgentRunStatus, ToolOutput, ToolOutputFields } from "../../tool-output.ts";
import { ToolError, toolOutput } from "../../agent/tool-result.ts";
import type { ToolContext } from "./tool-context.ts";

export const timeoutSecondsSchema = z
  .number()
  .int()
  .min(0)
  .max(MAX_TIMEOUT_SECONDS)
  .optional()
  .describe(
    `How long to wait for the answer, in seconds (default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS}); past it the agent goes on in the background. 0: start it in the background at once.`,
  );

/** The answer a result carries whole, at most (the result's own cap is 8,000 characters). */
const ANSWER_SHOWN_CHARS = 6_000;

export function hostOf(ctx: ToolContext, toolName: string, call: number, args: unknown): SubagentHost {
  if (ctx.subagents) return ctx.subagents;
  const text = `SubagentsUnavailableError: ${toolName} cannot run here: this conversation has no subagents.`;
  throw new ToolError({
    type: "SubagentsUnavailableError",
    text,
    args,
    advice: "Do the work yourself with your other tools.",
    toolName,
    call,
  });
}

export function slotsLine(running: number): string {
  const free = Math.max(0, MAX_RUNNING_CHILDREN - running);
  return `Slots: ${running} of ${MAX_RUNNING_CHILDREN} agents running in this conversation, ${free} free.`;
}

function answerText(answer: string): string {
  if (!answer) return "(no text)";
  if (answer.length <= ANSWER_SHOWN_CHARS) return answer;
  return `${answer.slice(0, ANSWER_SHOWN_CHARS)}\n[… ${answer.length - ANSWER_SHOWN_CHARS} more characters of the answer: ask the agent for the part you need with AgentSend.]`;
}

const BACKGROUND_NOTE =
  "Its answer will reach you as a system reminder (System · Subagents) at your next step after it finishes. Go on with other work meanwhile; AgentList shows its status.";

/** A run's result as the tool answers it: the key line first, then its status and answer. */
function runResult(key: string, waited: WaitResult | "background", timeoutSeconds: number, running: number): string {
  const head = `agent_key: ${key}`;
  if (waited === "background")
    return `${head}\nstatus: running (started in the background)\n${BACKGROUND_NOTE}\n${slotsLine(running)}`;
  if ("timedOut" in waited)
    return `${head}\nstatus: running (no answer within ${timeoutSeconds} s, so it goes on in the background)\n${BACKGROUND_NOTE}\n${slotsLine(running)}`;
  if ("aborted" in waited) return `${head}\nstatus: stopped (your reply was stopped, and the agent with it)`;
  const { outcome } = waited;
  const lines = [head, `status: ${outcome.status}`];
  if (outcome.error) lines.push(`error: ${oneLine(outcome.error)}`);
  lines.push(outcome.status === "done" ? "answer:" : "answer so far:", answerText(outcome.answer));
  return lines.join("\n");
}

function runStatus(waited: WaitResult | "background"): AgentRunStatus {
  if (waited === "background" || "timedOut" in waited) return "running";
  return "aborted" in waited ? "stopped" : waited.outcome.status;
}

/** AgentSpawn's or AgentSend's result: the run's key and how it stands, and the text above. */
export function runOutput<N extends "AgentSpawn" | "AgentSend">(
  toolName: N,
  call: number,
  {
    key,
    waited,
    timeoutSeconds,
    running,
  }: { key: string; waited: WaitResult | "background"; timeoutSeconds: number; running: number },
): ToolOutput<N> {
  const fields = { agentKey: key, status: runStatus(waited) } as ToolOutputFields[N];
  return toolOutput(toolName, call, runResult(key, waited, timeoutSeconds, running), fields);
}

/** One line per child, for AgentList and errors. */
export function childLine(child: ChildRecord, now = Date.now()): string {
  const label = child.run.label ? ` "${oneLine(child.run.label).slice(0, 80)}"` : "";
  const end = child.status === "running" ? now : Date.parse(child.run.endedAt ?? child.updatedAt);
  const seconds = Math.max(0, Math.round((end - Date.parse(child.run.startedAt ?? child.createdAt)) / 1000));
  const tokens = (child.run.tokens ?? 0).toLocaleString("en-US");
  return `${child.agentKey} [${child.status}]${label} — ${seconds} s, ${tokens} tokens${child.run.lastTool ? `, last tool ${child.run.lastTool}` : ""}`;
}
