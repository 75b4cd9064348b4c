// One reply's context: what startReply read once as it opened the turn, handed to the run as plain values, and the few
// ports through which the run reaches beyond its conversation (a subagent's parent, its own children).
import type { AgentState } from "../agent-state.ts";
import type { ConversationMode } from "../../agent/plan-mode.ts";
import type { Settings } from "../../agent/settings.ts";
import type { ResolvedModel } from "../../ai/providers/index.ts";
import type { ChatMessage, ResumeData, Task } from "../../chat-message.ts";
import type { ChildTurn, StartChildReply } from "../subagent-runs.ts";
import type { WorkspaceTracker } from "../workspace-view.ts";

export type ReplyContext = {
  conversationId: string;
  replyId: string;
  /** The conversation's model, and the model of its titles and summaries (HINTLINE_UTILITY_MODEL, else the same). */
  model: ResolvedModel;
  utility: ResolvedModel;
  settings: Settings;
  /** The window the context is measured against (the settings may override the model's own). */
  contextWindow: number;
  /** The conversation as the reply opened: its first step decides on it. */
  opened: { agentState: AgentState; mode: ConversationMode; workspaceId: string; tasks: Task[] };
  /** The messages before the reply (Continue: before the reply it carries on). */
  history: ChatMessage[];
  /** The reply to the person's latest message is generated again (Regenerate, Retry). */
  retry: boolean;
  /** A retry: how many earlier replies to that message are kept as alternatives (0: its first reply). */
  attempt: number;
  /** Continue: the stored reply (the row `replyId`) that this one carries on. */
  continued?: ChatMessage;
  /** A reply its process left, going on from its last finished step (`continued` holds what was kept). */
  resumed?: ResumeData;
  /** Settles once the turn's rows are stored: nothing of the reply is written before. */
  committed: Promise<void>;
  abortSignal: AbortSignal;
  /** The conversations above a subagent's, nearest first (none: the person's conversation). */
  ancestors: string[];
  /**
   * Whether it may spawn agents (false: a subagent at the maximum depth): its tools and system prompt leave the agent
   * tools and the Subagents section out.
   */
  spawns: boolean;
  /** Whether the conversation's person reads the operator's words in its errors (lib/operator-words.ts). */
  operatorWords: boolean;
  /** The workspace as the system prompt holds it, and what changed in it. */
  workspace: WorkspaceTracker;
};

export type ReplyPorts = {
  /** A subagent's turn: its agent and tools, its parent, and who waits for its steps and its end. */
  child?: ChildTurn;
  /** Starts a child's turn (AgentSpawn, AgentSend): startReply itself. */
  spawn?: StartChildReply;
};
