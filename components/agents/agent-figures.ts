// Pure helpers of the Subagents panel and the AgentSpawn row: a child's elapsed time in words, and the agent_key of a
// tool result.
import { toolOutputOf } from "@/lib/tool-output";

/** "0:07", "2:05", "1:03:09": from `startedAt` to `endedAt` (or `now` while it runs); "" for a time that is not one. */
export function elapsedText(startedAt: string, endedAt: string | undefined, now: number): string {
  const start = Date.parse(startedAt);
  const end = endedAt === undefined ? now : Date.parse(endedAt);
  if (Number.isNaN(start) || Number.isNaN(end)) return "";
  const total = Math.max(0, Math.floor((end - start) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

const KEY = /^agent:[a-z0-9][a-z0-9-]{0,63}:\d{1,6}$/;
const KEY_LINE = /^agent_key: (agent:[a-z0-9][a-z0-9-]{0,63}:\d{1,6})$/;

/**
 * The agent_key of an AgentSpawn / AgentSend result, if any: its data's `agentKey`; for a result stored as its text
 * (before results held data: a string, or an object that holds one), the key line it starts with.
 */
export function agentKeyOf(toolName: string, output: unknown): string | undefined {
  const data = toolOutputOf(toolName, output);
  if (data) return typeof data.agentKey === "string" && KEY.test(data.agentKey) ? data.agentKey : undefined;
  const text =
    typeof output === "string"
      ? output
      : output && typeof output === "object"
        ? textOf(output as Record<string, unknown>)
        : "";
  // Only the first line: a child's answer quoted further down may say anything.
  return KEY_LINE.exec(text.slice(0, 200).split("\n", 1)[0] ?? "")?.[1];
}

function textOf(output: Record<string, unknown>): string {
  for (const field of ["value", "text", "output"])
    if (typeof output[field] === "string") return output[field] as string;
  return "";
}

export const STATUS_WORDS = { running: "running", done: "done", error: "error", stopped: "stopped" } as const;
