// The agent's tools for one reply.
import { asSchema } from "ai";
import { countTokens } from "../../agent/token-count.ts";
import { taskCreateTool } from "./task-create.ts";
import { taskGetTool } from "./task-get.ts";
import { taskListTool } from "./task-list.ts";
import type { TaskToolContext } from "./task-tool-context.ts";
import { taskUpdateTool } from "./task-update.ts";

export const TOOL_NAMES = ["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"] as const;

export function createTools(ctx: TaskToolContext) {
  return {
    TaskCreate: taskCreateTool(ctx),
    TaskGet: taskGetTool(ctx),
    TaskList: taskListTool(ctx),
    TaskUpdate: taskUpdateTool(ctx),
  } satisfies Record<(typeof TOOL_NAMES)[number], unknown>;
}

export type ChatTools = ReturnType<typeof createTools>;

let definitionTokens: number | undefined;

/** The tool definitions' share of every prompt, counted once (the tool set is fixed). */
export function toolDefinitionTokens(): number {
  if (definitionTokens === undefined) {
    const tools = createTools({ conversationId: "", nextCallNumber: () => 0, onTasksChanged: () => {} });
    const definitions = Object.entries(tools).map(([name, t]) => ({
      name,
      description: t.description,
      parameters: asSchema(t.inputSchema as Parameters<typeof asSchema>[0]).jsonSchema,
    }));
    definitionTokens = countTokens(JSON.stringify(definitions));
  }
  return definitionTokens;
}

export { repairToolInput } from "./tool-input.ts";
