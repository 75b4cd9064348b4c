// Running subagents: a child is a conversation of its own, run by the same harness (startReply with its agent's
// instructions and tools). The parent's tools (AgentSpawn, AgentSend) start a run and wait for it — at most their
// timeout; then the run goes on in the background and its answer reaches the parent as a hint (subagent-hints.ts).
import { generateId } from "ai";
import { describeError } from "../agent/describe-error.ts";
import { HANDOVER_REASON } from "../agent/resume-point.ts";
import { wordsFor } from "../operator-words.ts";
import { readsOperatorWords } from "./operator-reader.ts";
import { type VisibleAgent, GENERAL_PURPOSE_AGENT_ID } from "../agent/subagents.ts";
import { DEFAULT_CHILD_MCP_TOOLS } from "../agent/subagent-mcp.ts";
import { DEFAULT_CHILD_TOOLS } from "../agent/tool-catalog.ts";
import type { CallUsage, ChatMessage, ChildStatus } from "../chat-message.ts";
import { now as clockNow } from "../clock.ts";
import { getConversation } from "../db/conversations.ts";
import {
  backgroundChild,
  type ChildRecord,
  type ChildRun,
  createChild,
  depthOf,
  getChild,
  listChildren,
  restartChild,
  settleChild,
  updateChildRun,
} from "../db/subagents.ts";
import { logFailure } from "../log/logger.ts";
import { currentTraceparent } from "../log/tracing.ts";
import { agentsVisibleIn } from "./agents.ts";
import { publishChange } from "./live/event-bus.ts";
import { replyLock } from "./live/reply-lock.ts";
import { type PromptAgent, promptAgentOf } from "./system-prompt.ts";

/** How a reply ended, once it is stored (a subagent's run waits for it). */
export type SettledReply = {
  status: "complete" | "incomplete" | "error";
  reply?: ChatMessage;
  error?: string;
  stopped: boolean;
  calls: CallUsage[];
};

/** A turn of a subagent's conversation (started here; the person cannot). */
export type ChildTurn = {
  agent: PromptAgent;
  /** The tools the child may use (none given: every tool). */
  tools?: readonly string[];
  /** The model calls one reply of the child may make (absent: HINTLINE_MAX_STEPS). */
  maxSteps?: number;
  parentId: string;
  /** Once the reply is stored as it ended. */
  onSettled: (settled: SettledReply) => Promise<void> | void;
  /** After each step but the last: the run's tokens and last tool so far. */
  onProgress?: (progress: { reply: ChatMessage; calls: CallUsage[] }) => Promise<void> | void;
  /** The span of the parent's call that started the run (W3C traceparent): the child's reply is traced under it. */
  traceparent?: string;
};

/** lib/chat/start-reply.ts's startReply, handed in (it imports the reply's tools, which use this module). */
export type StartChildReply = (args: {
  request: { id: string; message: { id: string; role: "user"; parts: Array<{ type: "text"; text: string }> } };
  child: ChildTurn;
}) => Promise<Response>;

/** Children running at once per conversation. */
export const MAX_RUNNING_CHILDREN = 4;
export { maxAgentDepth } from "../agent/tool-catalog.ts";
export const DEFAULT_TIMEOUT_SECONDS = 30;
export const MAX_TIMEOUT_SECONDS = 600;
/** The answer a run's record keeps (the whole is the child's last message). */
const ANSWER_KEPT_CHARS = 20_000;

export type RunOutcome = { status: Exclude<ChildStatus, "running">; answer: string; error?: string };

// Runs this process started, by child conversation: their ends, for the tools that wait.
const holder = globalThis as unknown as { __hintlineRuns?: Map<string, Promise<RunOutcome>> };
holder.__hintlineRuns ??= new Map();
const runs = holder.__hintlineRuns;

const textOf = (reply: ChatMessage | undefined) =>
  (reply?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("")
    .trim();

const tokensOf = (calls: readonly CallUsage[]) =>
  calls.reduce((sum, c) => sum + (c.inputTokens ?? 0) + (c.outputTokens ?? 0), 0);

function lastToolOf(reply: ChatMessage | undefined): string | undefined {
  const part = reply?.parts.findLast((p) => p.type.startsWith("tool-") || p.type === "dynamic-tool");
  if (!part) return undefined;
  return part.type === "dynamic-tool" ? (part as { toolName?: string }).toolName : part.type.slice(5);
}

/** The outcome a settled reply gives its run. */
export function outcomeOf(settled: SettledReply): RunOutcome {
  const answer = textOf(settled.reply);
  if (settled.stopped) return { status: "stopped", answer, error: settled.error ?? "Stopped." };
  if (settled.status === "error")
    return { status: "error", answer, error: settled.error ?? "The child's reply failed." };
  return {
    status: "done",
    answer,
    ...(settled.status === "incomplete" && settled.error ? { error: settled.error } : {}),
  };
}

async function settle(
  child: ChildRecord,
  run: ChildRun,
  outcome: RunOutcome,
  extra: Partial<ChildRun> = {},
): Promise<void> {
  const done: ChildRun = {
    ...run,
    ...extra,
    endedAt: clockNow().toISOString(),
    answer: outcome.answer.slice(0, ANSWER_KEPT_CHARS),
    ...(outcome.error ? { error: outcome.error } : {}),
  };
  if (!outcome.error) delete done.error;
  await settleChild({ id: child.id, status: outcome.status, run: done });
  publishAgents(child.parentId);
}

/** A child of `parentId` started or ended: the parent's view (its hint) and its side panel's list look again. */
function publishAgents(parentId: string): void {
  publishChange({ type: "conversation", id: parentId });
  publishChange({ type: "agents", id: parentId });
}

/**
 * The span running now (the parent's AgentSpawn / AgentSend call) as the run stores it: its reply, run here or resumed
 * by another instance, is traced under it. Nothing without tracing.
 */
function traceparentNow(): Pick<ChildRun, "traceparent"> {
  const traceparent = currentTraceparent();
  return traceparent ? { traceparent } : {};
}

type ChildRunPorts = { turn: ChildTurn; ended: Promise<RunOutcome>; failed: (outcome: RunOutcome) => void };

/**
 * What a run of the child needs wherever its reply runs (started here, or resumed after its process stopped): its
 * turn's agent, tools and limits, and the ports that record its figures and settle its record as it ends. `run` holds
 * the tokens of its earlier runs; the run is registered here until it ends.
 */
function childRunPorts(child: ChildRecord, run: ChildRun): ChildRunPorts {
  let resolve!: (outcome: RunOutcome) => void;
  const ended = new Promise<RunOutcome>((r) => {
    resolve = r;
  });
  runs.set(child.id, ended);
  void ended.finally(() => {
    if (runs.get(child.id) === ended) runs.delete(child.id);
  });
  const onSettled = async (settled: SettledReply) => {
    const outcome = outcomeOf(settled);
    try {
      await settle(child, run, outcome, {
        tokens: (run.tokens ?? 0) + tokensOf(settled.calls),
        ...(lastToolOf(settled.reply) ? { lastTool: lastToolOf(settled.reply) } : {}),
      });
    } finally {
      resolve(outcome);
    }
  };
  // Each step but the last records the run's figures so far and tells the side panel (one row update, one event).
  const onProgress = async ({ reply, calls }: { reply: ChatMessage; calls: CallUsage[] }) => {
    const lastTool = lastToolOf(reply);
    await updateChildRun({
      id: child.id,
      run: { ...run, tokens: (run.tokens ?? 0) + tokensOf(calls), ...(lastTool ? { lastTool } : {}) },
    });
    publishChange({ type: "agents", id: child.parentId });
  };
  const turn: ChildTurn = {
    agent: promptAgentOf(run),
    tools: run.tools,
    ...(run.maxSteps ? { maxSteps: run.maxSteps } : {}),
    parentId: child.parentId,
    onSettled,
    onProgress,
    ...(run.traceparent ? { traceparent: run.traceparent } : {}),
  };
  return { turn, ended, failed: resolve };
}

/** Starts a run of the child with `message` as the person's message of its turn; resolves once it started. */
async function startRun(
  start: StartChildReply,
  child: ChildRecord,
  run: ChildRun,
  message: string,
): Promise<{ ended: Promise<RunOutcome> }> {
  const { turn, ended, failed } = childRunPorts(child, run);
  try {
    const response = await start({
      request: { id: child.id, message: { id: generateId(), role: "user", parts: [{ type: "text", text: message }] } },
      child: turn,
    });
    // Nobody reads this follower; the reply runs on (and the drawer follows it through GET …/stream).
    void response.body?.cancel().catch(() => {});
  } catch (error) {
    // Read by the parent's person, or its model: the operator's words only where the person runs the server.
    const words = wordsFor(describeError(error), await readsOperatorWords(null));
    const outcome: RunOutcome = { status: "error", answer: "", error: words };
    await settle(child, run, outcome).catch(
      logFailure("settling a subagent that could not start failed", { conversationId: child.id }),
    );
    failed(outcome);
  }
  publishAgents(child.parentId);
  return { ended };
}

/**
 * The turn of a child whose reply is resumed after its process stopped (lib/chat/runs/resume-reply.ts): none unless
 * its run is still running. Whoever waited for it died with that process, so the run goes on in the background and
 * its answer reaches the parent as a hint. `callsSoFar`: the model calls its reply made before (counted in its tokens).
 */
export async function adoptedChildTurn(
  childId: string,
  callsSoFar: readonly CallUsage[],
): Promise<ChildTurn | undefined> {
  const child = await getChild({ id: childId });
  if (child?.status !== "running") return undefined;
  await backgroundChild({ id: childId });
  // The run's tokens as its reply began: the resumed reply counts its earlier calls again.
  const tokens = Math.max(0, (child.run.tokens ?? 0) - tokensOf(callsSoFar));
  const { turn } = childRunPorts(child, { ...child.run, tokens });
  publishAgents(child.parentId);
  return turn;
}

/** `toolCallId`: the parent's AgentSpawn / AgentSend call that started the run (its row shows the child's approvals). */
export type SpawnRequest = {
  start: StartChildReply;
  parentId: string;
  agent: VisibleAgent;
  task: string;
  label?: string;
  background: boolean;
  toolCallId?: string;
};

/** A child of `parentId` started running `task`; "busy" when the conversation's slots are all taken. */
export async function spawnChild({
  start,
  parentId,
  agent,
  task,
  label,
  background,
  toolCallId,
}: SpawnRequest): Promise<{ child: ChildRecord; ended: Promise<RunOutcome>; running: number } | { busy: number }> {
  const parent = await getConversation({ id: parentId });
  if (!parent) throw new Error(`Conversation ${parentId} does not exist.`);
  const run: ChildRun = {
    agentId: agent.id,
    ...(label ? { label } : {}),
    description: agent.description,
    instructions: agent.instructions,
    // No tools named: the read tools, its task tools and the MCP tools annotated read-only (lib/agent/subagent-mcp.ts).
    tools: [...(agent.tools ?? [...DEFAULT_CHILD_TOOLS, ...DEFAULT_CHILD_MCP_TOOLS])],
    ...(agent.model ? { model: agent.model } : {}),
    ...(agent.maxSteps ? { maxSteps: agent.maxSteps } : {}),
    startedAt: clockNow().toISOString(),
    ...(toolCallId ? { toolCallId } : {}),
    ...traceparentNow(),
    tokens: 0,
  };
  const made = await createChild({
    id: `${parentId.slice(0, 40)}_${generateId()}`.slice(0, 64),
    parentId,
    workspaceId: parent.workspaceId,
    // The Mode hint of its first reply tells a child of a planning parent that it plans.
    mode: parent.mode,
    // The person's zone and injection settings carry over; its prompt is the agent's.
    settings: childSettings(parent.settings),
    model: agent.model ?? parent.model,
    run,
    background,
    maxRunning: MAX_RUNNING_CHILDREN,
  });
  if ("busy" in made) return made;
  const { ended } = await startRun(start, made.child, run, task);
  return { child: made.child, ended, running: made.running };
}

/** A new run of a finished child with `message` (AgentSend). */
export async function sendToChild(
  start: StartChildReply,
  child: ChildRecord,
  message: string,
  background: boolean,
  toolCallId?: string,
): Promise<{ ended: Promise<RunOutcome> } | { busy: number } | "running"> {
  // The earlier run's span is not this one's.
  const { traceparent: _earlier, ...earlier } = child.run;
  const run: ChildRun = {
    ...earlier,
    startedAt: clockNow().toISOString(),
    ...(toolCallId ? { toolCallId } : {}),
    ...traceparentNow(),
  };
  if (!toolCallId) delete run.toolCallId;
  delete run.endedAt;
  delete run.answer;
  delete run.error;
  const restarted = await restartChild({
    id: child.id,
    parentId: child.parentId,
    run,
    background,
    maxRunning: MAX_RUNNING_CHILDREN,
  });
  if (restarted === "running" || "busy" in restarted) return restarted;
  return startRun(start, restarted, run, message);
}

function childSettings(settings: unknown): object {
  const record =
    typeof settings === "object" && settings !== null && !Array.isArray(settings)
      ? (settings as Record<string, unknown>)
      : {};
  return record.injection ? { injection: record.injection } : {};
}

export type WaitResult = { outcome: RunOutcome } | { timedOut: true } | { aborted: true };

/**
 * Waits for a run up to `timeoutSeconds`: its outcome; or, when the time ran out, the run goes on in the background
 * (unless it ended meanwhile: then its outcome); or the parent's reply was stopped, which stops the child too.
 */
export async function waitForRun(
  childId: string,
  ended: Promise<RunOutcome>,
  timeoutSeconds: number,
  signal?: AbortSignal,
): Promise<WaitResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const result = await Promise.race([
    ended.then((outcome) => ({ outcome })),
    new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutSeconds * 1000);
    }),
    new Promise<"aborted">((resolve) => {
      if (!signal) return;
      if (signal.aborted) return resolve("aborted");
      onAbort = () => resolve("aborted");
      signal.addEventListener("abort", onAbort, { once: true });
    }),
  ]);
  clearTimeout(timer);
  if (onAbort) signal?.removeEventListener("abort", onAbort);
  if (result === "aborted") {
    // A graceful restart hands the child over with its parent (the drain stops every reply so): not stopped here.
    if (signal?.reason === HANDOVER_REASON) return { aborted: true };
    await replyLock()
      .stop(childId)
      .catch(logFailure("stopping a subagent with its parent failed", { conversationId: childId }));
    return { aborted: true };
  }
  if (result === "timeout") {
    if (await backgroundChild({ id: childId })) return { timedOut: true };
    return { outcome: await ended };
  }
  return result;
}

/**
 * Children marked running that run nowhere (their server died before their reply was stored): settled as stopped, so
 * their answer (none) is told to the parent once when they ran in the background. A child whose reply was stored is
 * resumed instead (lib/chat/runs/resume-reply.ts) and holds its lock meanwhile: it is left alone. Returns how many were
 * settled.
 */
export async function settleOrphans(children: readonly ChildRecord[]): Promise<number> {
  let settled = 0;
  for (const child of children) {
    if (child.status !== "running" || runs.has(child.id)) continue;
    // A run that has just been created and is opening its reply holds no lock for a moment: leave it a grace period.
    if (Date.now() - Date.parse(child.run.startedAt ?? child.updatedAt) < 15_000) continue;
    if (await replyLock().live(child.id)) continue;
    const current = await getChild({ id: child.id });
    if (current?.status !== "running") continue;
    const reason = "The server running this agent stopped before it finished, so it was stopped.";
    await settleChild({
      id: child.id,
      status: "stopped",
      run: { ...current.run, endedAt: clockNow().toISOString(), error: reason },
    });
    settled++;
  }
  if (settled) publishAgents(children[0]!.parentId);
  return settled;
}

export { GENERAL_PURPOSE_AGENT_ID };

/** What the agent tools of one reply use: the conversation's children and how to run them. */
export type SubagentHost = ReturnType<typeof subagentHost>;

export function subagentHost({
  start,
  parentId,
  workspaceId,
}: {
  start: StartChildReply;
  parentId: string;
  workspaceId?: string;
}) {
  // Whose agents the conversation sees: its workspace's and its owner's levels.
  const scope = async () => {
    const parent = await getConversation({ id: parentId });
    return { workspaceId: parent?.workspaceId ?? workspaceId ?? "default", ownerId: parent?.ownerId ?? null };
  };
  return {
    parentId,
    agents: async () => agentsVisibleIn(await scope()),
    depth: () => depthOf({ id: parentId }),
    children: async () => {
      const children = await listChildren({ parentId });
      // A child whose server died is settled here, before anyone reads it as running.
      if (await settleOrphans(children)) return listChildren({ parentId });
      return children;
    },
    spawn: (agent: VisibleAgent, task: string, label: string | undefined, background: boolean, toolCallId?: string) =>
      spawnChild({ start, parentId, agent, task, label, background, toolCallId }),
    send: (child: ChildRecord, message: string, background: boolean, toolCallId?: string) =>
      sendToChild(start, child, message, background, toolCallId),
    wait: waitForRun,
  };
}
