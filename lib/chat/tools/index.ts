// The agent's tools for one reply. The list (names, descriptions, schemas, order) is the same in every mode: it sits
// in the provider's cached prefix. Each tool declares what it does (`access`); in plan mode the ones that write
// refuse with a detailed error instead of running.
import { AsyncLocalStorage } from "node:async_hooks";
import { asSchema, type Tool } from "ai";
import { agentListTool } from "./agent-list.ts";
import { agentSendTool } from "./agent-send.ts";
import { agentSpawnTool } from "./agent-spawn.ts";
import { type ToolAccess, planModeRefusal, refusesInMode } from "../../agent/plan-mode.ts";
import { countTokens } from "../../agent/token-count.ts";
import { instructionsReadTool } from "./instructions-read.ts";
import { knowledgeListTool } from "./knowledge-list.ts";
import { knowledgeReadTool } from "./knowledge-read.ts";
import { knowledgeSearchTool } from "./knowledge-search.ts";
import { memorySearchTool } from "./memory-search.ts";
import { memoryWriteTool } from "./memory-write.ts";
import { planReadTool } from "./plan-read.ts";
import { planWriteTool } from "./plan-write.ts";
import { skillLoadTool } from "./skill-load.ts";
import { taskCreateTool } from "./task-create.ts";
import { ToolError, toolExecutionError } from "../../agent/tool-result.ts";
import { logFailure } from "../../log/logger.ts";
import { taskGetTool } from "./task-get.ts";
import { taskListTool } from "./task-list.ts";
import { REPEAT_WARNING_FROM, repeatWarning, type ToolContext } from "./tool-context.ts";
import { taskUpdateTool } from "./task-update.ts";
import { AGENT_TOOL_NAMES, subagentsEnabled } from "../../agent/tool-catalog.ts";
import { toolOutputOf } from "../../tool-output.ts";
import type { ToolStyle } from "../../agent/fixed-part.ts";
import { compactTool } from "./compact.ts";

/** A tool: its name, what it does to the conversation's state, how it is made, and its one-line brief (compact style). */
type ToolDefinition = { name: string; access: ToolAccess; create: (ctx: ToolContext) => Tool; brief: string };

/** Every tool, in the order the provider sees them, with what it does to the conversation's state. */
export const TOOL_DEFINITIONS = [
  {
    name: "TaskCreate",
    access: "write",
    create: taskCreateTool,
    brief: "Create a task (a short subject and what to do) in this conversation's task list.",
  },
  { name: "TaskGet", access: "read", create: taskGetTool, brief: "Get one task's full details." },
  {
    name: "TaskList",
    access: "read",
    create: taskListTool,
    brief: "List the tasks: id, status and subject, open ones first.",
  },
  {
    name: "TaskUpdate",
    access: "write",
    create: taskUpdateTool,
    brief: "Update a task: its subject, description, status (deleted removes it), owner, links or metadata.",
  },
  {
    name: "PlanWrite",
    access: "plan",
    create: planWriteTool,
    brief: "Write this conversation's plan as markdown; it replaces the previous one.",
  },
  {
    name: "PlanRead",
    access: "read",
    create: planReadTool,
    brief: "Read this conversation's current plan, numbered lines.",
  },
  {
    name: "MemoryWrite",
    access: "write",
    create: memoryWriteTool,
    brief: "Append one line (a preference, fact or decision) to the workspace's memory, unless it is there.",
  },
  { name: "MemorySearch", access: "read", create: memorySearchTool, brief: "Search the workspace's memory." },
  {
    name: "KnowledgeRead",
    access: "read",
    create: knowledgeReadTool,
    brief: "Read a file of the workspace's knowledge folder, numbered lines.",
  },
  {
    name: "KnowledgeSearch",
    access: "read",
    create: knowledgeSearchTool,
    brief: "Search the knowledge files: matching lines with their path and line number.",
  },
  {
    name: "KnowledgeList",
    access: "read",
    create: knowledgeListTool,
    brief: "List the knowledge files as they are now.",
  },
  {
    name: "InstructionsRead",
    access: "read",
    create: instructionsReadTool,
    brief: "Read the workspace's instructions as they are now, numbered lines.",
  },
  {
    name: "SkillLoad",
    access: "read",
    create: skillLoadTool,
    brief: "Load a skill's instructions by its name (or one of its files by path), then follow them.",
  },
  // Subagents (lib/chat/subagent-runs.ts): a child inherits the parent's plan mode, so starting one writes nothing.
  {
    name: "AgentSpawn",
    access: "read",
    create: agentSpawnTool,
    brief: "Run a self-contained task on a subagent (it sees nothing of this chat); returns its answer and agent_key.",
  },
  {
    name: "AgentSend",
    access: "read",
    create: agentSendTool,
    brief: "Send a follow-up to a subagent that has answered, by agent_key or label.",
  },
  {
    name: "AgentList",
    access: "read",
    create: agentListTool,
    brief: "List this conversation's subagents and the free slots.",
  },
] as const satisfies readonly ToolDefinition[];

export type ToolName = (typeof TOOL_DEFINITIONS)[number]["name"];
export const TOOL_NAMES: readonly ToolName[] = TOOL_DEFINITIONS.map((d) => d.name);

/**
 * The tool, refusing while the conversation is in plan mode when it writes, warning (at the end of its result's text or
 * error) from the third call with the same arguments within one reply that gave the same result each time, and giving
 * any failure that is no ToolError of its own (a plain Error, a storage error) to the model as a ToolExecutionError
 * with its detail, the arguments and the call counter.
 */
function guarded({ name, access, create }: ToolDefinition, ctx: ToolContext): Tool {
  // The call number this call took (tools take it first thing), for an error that does not carry it.
  const taken = new AsyncLocalStorage<{ call?: number }>();
  const tool = create({
    ...ctx,
    nextCallNumber: (toolName) => {
      const call = ctx.nextCallNumber(toolName);
      const slot = taken.getStore();
      if (slot) slot.call = call;
      return call;
    },
  });
  const execute = tool.execute;
  if (!execute) return tool;
  const refuses = refusesInMode(access, "plan");
  const run = async (input: unknown, options: Parameters<typeof execute>[1], slot: { call?: number }) => {
    // The warning goes on a result (or error) that repeats the previous identical call's.
    const warn = (text: string) => {
      const repeats = ctx.repeatCount?.(name, input, text) ?? 0;
      return repeats >= REPEAT_WARNING_FROM ? `${text}\n${repeatWarning(name, repeats)}` : text;
    };
    let result: unknown;
    try {
      const mode = refuses ? ((await ctx.mode?.()) ?? "build") : "build";
      if (refusesInMode(access, mode)) {
        const call = ctx.nextCallNumber(name);
        throw new ToolError({ ...planModeRefusal(name, { child: ctx.child }), args: input, toolName: name, call });
      }
      result = await execute(input, options);
    } catch (thrown) {
      // Stopped: the error is the stop's, not a fault of the tool: passed on as it was.
      if (options?.abortSignal?.aborted && !(thrown instanceof ToolError)) throw thrown;
      let error = thrown;
      if (!(error instanceof ToolError)) {
        logFailure("a tool failed", { conversationId: ctx.conversationId, tool: name })(error);
        const call = slot.call ?? ctx.nextCallNumber(name);
        error = toolExecutionError({ error, toolName: name, args: input, call, writes: access !== "read" });
      }
      (error as ToolError).message = warn((error as ToolError).message);
      throw error;
    }
    const output = toolOutputOf(name, result);
    return output ? { ...output, text: warn(output.text) } : result;
  };
  return {
    ...tool,
    execute: (input, options) => {
      const slot: { call?: number } = {};
      return taken.run(slot, () => run(input, options, slot));
    },
  };
}

/**
 * The tools a conversation is offered, in their order: `only` just these (a subagent's own list, or the fixed part's
 * choice: lib/chat/system-prompt.ts); `spawns` false (a subagent at the maximum depth, or subagents off) leaves the
 * agent tools out.
 */
function offered(only: readonly string[] | undefined, spawns: boolean) {
  const enabled = spawns ? TOOL_DEFINITIONS : TOOL_DEFINITIONS.filter((d) => !AGENT_TOOL_NAMES.includes(d.name));
  return only ? enabled.filter((d) => only.includes(d.name)) : enabled;
}

/** The names of the tools createTools offers with the same arguments. */
export const offeredToolNames = (only?: readonly string[], spawns = subagentsEnabled()): ToolName[] =>
  offered(only, spawns).map((d) => d.name);

/** The tools, in their order (see `offered`), described in `style` (lib/agent/fixed-part.ts). */
export function createTools(
  ctx: ToolContext,
  only?: readonly string[],
  spawns = subagentsEnabled(),
  style: ToolStyle = "full",
): Record<ToolName, Tool> {
  return Object.fromEntries(
    offered(only, spawns).map((d) => {
      const tool = guarded(d, ctx);
      return [d.name, style === "compact" ? compactTool(tool, d.brief) : tool];
    }),
  ) as Record<ToolName, Tool>;
}

/** How many tool names an UnknownToolError lists before it counts the rest. */
export const UNKNOWN_TOOL_NAMES_SHOWN = 60;

const comparable = (name: string) => name.toLowerCase().replace(/[\s_-]/g, "");

/**
 * The error a call of a tool that does not exist gets (the SDK's own would be its raw NoSuchToolError): the names
 * this reply offers (`offered`: its own tools and its MCP tools, in order; the first UNKNOWN_TOOL_NAMES_SHOWN, the
 * rest counted) and what to do instead, with the call counter like every tool error.
 */
export function unknownToolError(
  nextCallNumber: (toolName: string) => number,
  offered: readonly string[] = TOOL_NAMES,
) {
  return ({ toolName, input }: { toolName: string; input: unknown }): ToolError => {
    const name = toolName.replace(/\s+/g, " ").slice(0, 100);
    const near = offered.find((t) => comparable(t) === comparable(name));
    const shown = offered.slice(0, UNKNOWN_TOOL_NAMES_SHOWN);
    const more = offered.length - shown.length;
    const list = shown.length
      ? `The tools are: ${shown.join(", ")}${more > 0 ? `, and ${more} more (every one is in your tool definitions)` : ""}.`
      : "This reply offers no tools.";
    return new ToolError({
      type: "UnknownToolError",
      text: `UnknownToolError: There is no tool named "${name}", so nothing was run. ${list}`,
      args: input,
      advice: `${near ? `Did you mean ${near}? ` : ""}Call one of those tools by its exact name (names are case-sensitive); if none of them does what you need, say so instead of guessing a tool name.`,
      toolName: name,
      call: nextCallNumber(name),
    });
  };
}

const definitionTokens = new Map<string, number>();

/** The definitions' share of every prompt of the tools `names` in `style`, counted once per set. */
export function toolDefinitionTokens(names: readonly string[] = TOOL_NAMES, style: ToolStyle = "full"): number {
  const key = `${style}:${names.join(",")}`;
  let tokens = definitionTokens.get(key);
  if (tokens === undefined) {
    const tools = createTools(
      { conversationId: "", nextCallNumber: () => 0, onTasksChanged: () => {} },
      names,
      true,
      style,
    );
    const definitions = Object.entries(tools).map(([name, t]) => ({
      name,
      description: t.description,
      parameters: asSchema(t.inputSchema as Parameters<typeof asSchema>[0]).jsonSchema,
    }));
    tokens = countTokens(JSON.stringify(definitions));
    // A handful of sets in practice (the fixed part's tries, agents' own lists); bounded all the same.
    if (definitionTokens.size >= 256) definitionTokens.clear();
    definitionTokens.set(key, tokens);
  }
  return tokens;
}

export { repairToolInput } from "./tool-input.ts";
