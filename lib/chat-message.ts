// The one message model shared by the server, the client and the database.
import type { InferUIMessageChunk, UIMessage } from "ai";

export type MessageStatus = "complete" | "streaming" | "incomplete" | "error";

export type MessageMetadata = {
  createdAt?: string;
  /** When an assistant reply ended (its last write): the pause before the person's next message counts from it. */
  endedAt?: string;
  /** Absent means complete. */
  status?: MessageStatus;
  /** A person-readable reason when status is error or incomplete. */
  error?: string;
  /** The model that produced an assistant message. */
  model?: string;
  /** An assistant message's model calls, in order, with the provider's figures (left out when implausible). */
  usage?: CallUsage[];
  /** The reply made the most model calls it may (HINTLINE_MAX_STEPS or its agent's): its last answered without tools. */
  stepLimit?: number;
  /** Each time the reply went on after its process stopped, from the last step it had finished. */
  resumes?: ResumeData[];
};

/**
 * A reply resumed: when, after how many finished steps, and why (`restart`: the next start of a one-process server;
 * `instance-lost`: taken over by another instance). Also the `data-resumed` part where the reply went on.
 */
export type ResumeData = { at: string; afterStep: number; reason: "restart" | "instance-lost" };

/** One model call's token figures as the provider reported them. */
/** One model call's figures: all input (cache reads and writes included), cache reads, cache writes, output. */
export type CallUsage = {
  inputTokens?: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
  outputTokens?: number;
};

export type CacheTotals = { inputTokens: number; cachedInputTokens: number };

/**
 * A call's cache figures; `cacheReason: "below-cache-floor"` when it read nothing because its whole input was under the
 * model's minimum cacheable prompt (`minCacheTokens`): not a break.
 */
export type CallCacheFigures = CacheTotals & { cacheReason?: "below-cache-floor"; minCacheTokens?: number };

/** Why a model call's input was not an extension of the previous call's (the provider's cache missed from there). */
export type CacheBreakCause =
  | "compression"
  | "prompt-edit"
  | "settings-edit"
  | "replaced-status"
  | "retry"
  | "branch"
  | "model-switch"
  | "tools-changed"
  | "ttl-expired"
  | "unexpected";

export type CacheBreak = {
  /** The conversation's model call (1 for its first), as numbered in the inspector's call list. */
  call: number;
  /** Index of the first model message that differs; null when the model, the system prompt or the tools changed. */
  firstChangedMessage: number | null;
  /**
   * What changed first: the model (no provider cache carries over), the system prompt, the tools or the messages; or
   * `time`: nothing changed, but the cache outlived its TTL before the call (`ttl-expired`).
   */
  changed: "model" | "system" | "tools" | "messages" | "time";
  cause: CacheBreakCause;
  at: string;
};

export type HintSource = { label: string; sublabel: string };

export type HintData = {
  source: HintSource;
  fields: Record<string, string>;
  /** The full rendered reminder, exactly what the model receives. */
  text: string;
  createdAt: string;
  /** Came in with an imported conversation (set by the server on import): shown, never sent to the model. */
  imported?: boolean;
  /**
   * A status sent under the replace strategy: the last message of its model call, removed before the next one. Once
   * removed it is `superseded` (still shown, never sent again).
   */
  replace?: boolean;
  superseded?: boolean;
  /** A Workspace hint: the workspace revision it told (what the agent knows from then on). */
  revision?: string;
  /** A runtime hint with the task counts: how many of the person's task edits it covered. */
  taskEdits?: number;
  /** A Subagents hint: the children's runs whose answers it handed over (lib/agent/subagents.ts's childRunKey). */
  runs?: string[];
  /**
   * A State hint (source { label: "State", sublabel: NAME }): every value the source held when told (whatever the hint
   * showed within its budget), and since when it was unavailable, if it was (lib/agent/state-sources.ts).
   */
  state?: { values: Record<string, string>; unavailableSince?: string };
};

export type TaskStatus = "pending" | "in_progress" | "completed" | "cancelled";

export type Task = {
  id: string;
  subject: string;
  description: string;
  status: TaskStatus;
  owner?: string;
  blocks: string[];
  blockedBy: string[];
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
};

/** The MCP tools' definitions in every call, tokens per server. */
export type McpToolTokens = { byServer: Record<string, number> };

export type ContextUsage = {
  inputTokens: number;
  contextWindow: number;
  triggerTokens: number;
  bufferStartTokens: number;
  /** Tokenizer counts per kind of content (`tools` includes the MCP tools). */
  breakdown?: { system: number; tools: number; summary: number; messages: number; hints: number };
  /** The MCP tools' share of `breakdown.tools`, per server (absent when the conversation has none). */
  toolsByServer?: Record<string, number>;
  /** Provider-reported cache figures: the last model call's and the whole conversation's. */
  cache?: { lastCall: CallCacheFigures | null; conversation: CacheTotals };
};

/** What an evidence ledger item is (lib/agent/evidence-ledger.ts finds them). */
export const LEDGER_KINDS = ["path", "url", "command", "number", "date", "id", "task"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** An identifier kept verbatim beside a compression's summary. */
export type LedgerItem = {
  kind: LedgerKind;
  /** Verbatim, as it was written. */
  value: string;
  /** A few words around it, so the model knows what it was (at most CONTEXT_CHARS of lib/agent/evidence-ledger.ts). */
  context: string;
  /** How many times it was written in the summarised part (and in earlier ones). */
  refs: number;
  /** The person pinned it: it is never dropped by the bound. */
  pinned?: boolean;
};

export type CompressionData = {
  tokensBefore: number;
  /** The input as measured right after it (system prompt and tools included). */
  tokensAfter: number;
  summarizedMessages: number;
  keptMessages: number;
  /** Summarising failed and the older messages were truncated instead. */
  fallback: boolean;
  /** The compression call's own token usage. */
  usage?: { inputTokens: number; outputTokens: number };
  summary: string;
  /** The identifiers kept verbatim with the summary (lib/agent/evidence-ledger.ts), and those the bound left out. */
  ledger?: LedgerItem[];
  dropped?: LedgerItem[];
  /** The durable facts this compression added to the workspace's memory (absent when that is off for the workspace). */
  memory?: CompressionMemory;
  /** It left the context at or over the trigger: what fills the window, told once per window size. */
  stuck?: CompressionStuck;
  createdAt: string;
};

/** What filled the window after a compression that could not get under the trigger (lib/agent/compression-hold.ts). */
export type CompressionStuck = {
  contextWindow: number;
  inputTokens: number;
  triggerTokens: number;
  /** How much the input must grow before the next automatic compression. */
  growthTokens: number;
  breakdown: { system: number; tools: number; summary: number; messages: number; hints: number };
};

/** What a compression did to the workspace's memory (lib/chat/compression-memory.ts). */
export type CompressionMemory = {
  workspaceId: string;
  /** The entries stored, as the system's; the chip's Undo deletes them. */
  stored: Array<{ id: string; text: string }>;
  /** Proposed facts the memory already held. */
  duplicates: number;
  /** Proposed facts left out because the memory was full. */
  full: number;
  /** The facts call failed (logged at warn): nothing was proposed. */
  failed?: boolean;
};

/** A failed model call about to be tried again (streamed into the reply, never stored). */
export type RetryData = {
  /** 1 for the first retry. */
  attempt: number;
  maxRetries: number;
  delayMs: number;
  /** Why the call failed, in words a person can read. */
  reason: string;
};

/** A conversation's plan (its newest version), streamed as a transient `data-plan` chunk while PlanWrite writes it. */
/** A conversation's mode: planning (read-only tools) or building. */
export type ConversationMode = "plan" | "build";
export const isConversationMode = (value: unknown): value is ConversationMode => value === "plan" || value === "build";
/** Who wrote a plan version. */
export type PlanAuthor = "agent" | "person";

export type PlanData = { content: string; updatedAt: string; version: number; author: PlanAuthor };

/**
 * A running MCP call's latest progress as its server reported it (the message plain and capped: it is untrusted), for
 * the call's tool row; streamed as a transient `data-tool-progress` chunk whose id is the call's, never stored.
 */
export type ToolProgressData = { toolCallId: string; progress?: number; total?: number; message?: string };

/**
 * A message the person queued as a steer ("next-step"), as the running reply took it before its next model call: the
 * model reads it as the person's message at its place in the reply (lib/agent/to-model-messages.ts). `parts`: the
 * queued message's text and file parts; `messageId`: its id as the person's client sent it.
 */
export type SteerData = {
  messageId: string;
  parts: Array<{ type: string; [key: string]: unknown }>;
  /** When it was queued. */
  queuedAt: string;
  /** When the reply took it (its timestamp in the model's input, as a person's message's time). */
  createdAt: string;
};

export type DataParts = {
  hint: HintData;
  steer: SteerData;
  compression: CompressionData;
  tasks: Task[];
  "context-usage": ContextUsage;
  retry: RetryData;
  plan: PlanData;
  "tool-progress": ToolProgressData;
  resumed: ResumeData;
};

export type ChatMessage = UIMessage<MessageMetadata, DataParts>;
export type ChatMessagePart = ChatMessage["parts"][number];
export type ChatChunk = InferUIMessageChunk<ChatMessage>;

/** A conversation in the list: `pinned` ones come first; `archived` ones are listed only when asked for (and found by search). */
export type ConversationSummary = {
  id: string;
  workspaceId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  pinned: boolean;
  archived: boolean;
};

export type ModelInfo = {
  id: string;
  provider: string;
  contextWindow: number;
  isDemo: boolean;
  /** The connection added over the API that serves it (/api/connections); absent for the environment's and the demo. */
  connection?: string;
};

/** A subagent's state (lib/db/subagents.ts stores it). */
export type ChildStatus = "running" | "done" | "error" | "stopped";

/** A subagent's call that waits for the person; `conversationId`: where it is answered (the child itself, or one of its own running children). */
export type ChildApproval = {
  conversationId: string;
  agentKey: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
};

/** A subagent as its parent's view lists it (lib/chat/subagent-view.ts). */
export type AgentSummary = {
  agentKey: string;
  agentId: string;
  label?: string;
  conversationId: string;
  status: ChildStatus;
  startedAt: string;
  endedAt?: string;
  tokens: number;
  lastTool?: string;
  /** The parent's AgentSpawn / AgentSend call that started its current run. */
  toolCallId?: string;
  /**
   * The calls of its running reply (or of its own running children's) that wait for the person, each answered at
   * POST /api/conversations/<its conversationId>/approvals/<toolCallId>.
   */
  approvals?: ChildApproval[];
};
