// Pure: a built-in tool's result as its part stores it — what the call found or did, as fields (the transcript reads
// them), and `text`, the words the model reads, exactly: the tool's toModelOutput gives the model that text, and a
// later turn replays it from the part. MCP tools' results, and every result stored before results held data (imports
// and existing databases hold them), are that text alone, as a string.
import type { TaskStatus } from "./chat-message.ts";

/** A window of a long text's lines (1-based; `last` < `first` when the window is past the end). */
export type LineRange = { first: number; last: number; total: number };

/** Where a loaded skill comes from (lib/chat/skills.ts). */
export type SkillOrigin = "user" | "workspace" | "default" | "operator";

/** How a subagent's run stands when AgentSpawn or AgentSend answers. */
export type AgentRunStatus = "running" | "done" | "error" | "stopped";

/** Each built-in tool's fields. */
export type ToolOutputFields = {
  TaskCreate: { taskId: string; subject: string };
  TaskGet: { taskId: string; subject: string; status: TaskStatus };
  /** `total` tasks in the conversation; `shown` of them on this page, from `offset`. */
  TaskList: { total: number; offset: number; shown: number };
  /** `changed`: the fields it changed, as AgentScope names them; `status`: the task's now (none once deleted). */
  TaskUpdate: { taskId: string; result: "updated" | "unchanged" | "deleted"; changed: string[]; status?: TaskStatus };
  PlanWrite: { version: number; chars: number };
  /** `version` null: no plan yet. */
  PlanRead: { version: number | null; lines?: LineRange };
  /** `total`: the entries the workspace's memory holds now. */
  MemoryWrite: { entryId: string; entry: string; total: number };
  /** `matches` of the memory's `entries`, `shown` of them (best first). */
  MemorySearch: { matches: number; shown: number; entries: number };
  KnowledgeRead: { path: string; bytes: number; lines: LineRange };
  /** `everyWord`: the lines hold every word (else any of them, when none holds all). */
  KnowledgeSearch: { words: string[]; matches: number; everyWord: boolean };
  KnowledgeList: { prefix: string; files: number; shown: number };
  /** `chars` 0: the workspace has no instructions. */
  InstructionsRead: { chars: number; lines?: LineRange };
  /** `path`: a resource file read instead of the instructions; `lines`: a window (none: the instructions whole). */
  SkillLoad: { name: string; origin: SkillOrigin; path?: string; lines?: LineRange };
  AgentSpawn: { agentKey: string; status: AgentRunStatus };
  AgentSend: { agentKey: string; status: AgentRunStatus };
  AgentList: { agents: number; running: number; free: number };
};

export type OutputToolName = keyof ToolOutputFields;

/** A built-in tool's stored result: `tool` names it (a check that the object is one), then its fields and text. */
export type ToolOutput<N extends OutputToolName = OutputToolName> = { tool: N; text: string } & ToolOutputFields[N];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A result of `toolName` when it is a built-in tool's object. Read defensively: an import may hold anything, and
 * only `tool` and `text` are checked (any other field may be missing or of another type).
 */
export function toolOutputOf(
  toolName: string,
  output: unknown,
): (Record<string, unknown> & { text: string }) | undefined {
  return isRecord(output) && output.tool === toolName && typeof output.text === "string"
    ? (output as Record<string, unknown> & { text: string })
    : undefined;
}

/** The text the model reads for a stored result: a string as it is, a built-in tool's object's text; else undefined. */
export function toolOutputText(toolName: string, output: unknown): string | undefined {
  return typeof output === "string" ? output : toolOutputOf(toolName, output)?.text;
}
