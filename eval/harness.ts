// Drives one conversation through Hintline's real harness, in process: the same lib/chat code the routes call
// (startReply → prompt assembly, hints, tools, compression → the stored reply), on a throwaway SQLite database and a
// simulated clock. Every turn is recorded: what the person sent, the hints the model got, its tool calls and answer.
import { OPERATOR } from "../lib/auth/viewer.ts";
import type { InjectionStrategy } from "../lib/agent/injection-strategy.ts";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateId } from "ai";
import type { ChatMessage, CompressionData, ContextUsage, Task } from "../lib/chat-message.ts";
import { compactNow } from "../lib/chat/compact-now.ts";
import { getConversationView } from "../lib/chat/conversation-view.ts";
import { addTaskByPerson, editTaskByPerson, listConversationTasks } from "../lib/chat/task-edits.ts";
import { startReply } from "../lib/chat/start-reply.ts";
import { updateConversationFields } from "../lib/chat/update-conversation.ts";
import { setClock } from "../lib/clock.ts";
import { addWorkspace, editWorkspace } from "../lib/chat/workspaces.ts";
import { saveKnowledge } from "../lib/chat/knowledge.ts";
import { addStateSource } from "../lib/chat/state-sources.ts";
import { ensureConversation } from "../lib/db/conversations.ts";
import { listMessages } from "../lib/db/messages.ts";

export type ModelTarget = { baseUrl?: string; model?: string; apiKey?: string; contextWindow?: number };

/** Points the process at a fresh, migrated SQLite database and at the model (the demo model without a base URL). */
export function prepareEnvironment(target: ModelTarget): { databaseUrl: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-eval-"));
  const databaseUrl = `file:${path.join(dir, "eval.db")}`;
  const root = path.resolve(import.meta.dirname, "..");
  execFileSync(process.execPath, [path.join(root, "scripts/db-migrate.mjs"), "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: "pipe",
  });
  process.env.DATABASE_URL = databaseUrl;
  // The scenarios' own state sources are served on loopback.
  process.env.HINTLINE_MCP_ALLOW_PRIVATE = "1";
  for (const key of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "HINTLINE_MODEL", "HINTLINE_CONTEXT_WINDOW"])
    delete process.env[key];
  if (target.baseUrl) {
    process.env.OPENAI_BASE_URL = target.baseUrl;
    process.env.HINTLINE_MODEL = target.model ?? "gpt-4o-mini";
    if (target.apiKey) process.env.OPENAI_API_KEY = target.apiKey;
  } else {
    process.env.HINTLINE_DEMO_WORD_DELAY_MS = "0";
  }
  if (target.contextWindow) process.env.HINTLINE_CONTEXT_WINDOW = String(target.contextWindow);
  return { databaseUrl, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export type CallFigures = { inputTokens?: number; cachedInputTokens?: number; outputTokens?: number };

export type Turn = {
  at: string;
  said: string;
  answer: string;
  status: string;
  steps: number;
  toolCalls: Array<{ tool: string; input: unknown; output?: unknown; error?: string }>;
  hints: string[];
  compressions: CompressionData[];
  calls: CallFigures[];
  wallMs: number;
};

export type Action = { at: string; action: string; detail?: unknown };

/** A simulated wall clock: starts at `start`, moves only when told. */
export class SimulatedClock {
  #ms: number;
  constructor(start: string) {
    this.#ms = Date.parse(start);
  }
  now = (): Date => new Date(this.#ms);
  advance({ hours = 0, minutes = 0 }: { hours?: number; minutes?: number }): void {
    this.#ms += (hours * 60 + minutes) * 60_000;
  }
}

type Options = {
  hints?: boolean;
  strategy?: InjectionStrategy;
  memoryFromCompression?: boolean;
  delegate?: boolean;
  state?: boolean;
};

export class EvalConversation {
  readonly id = `eval-${generateId()}`;
  /** Every turn and action of the run: a sibling conversation records into the same lists. */
  readonly turns: Turn[];
  readonly actions: Action[];
  readonly clock: SimulatedClock;

  readonly #options: Options;
  #workspaceId = "default";

  /**
   * `hints`: settings.injection.injectRuntimeState of the conversation; `strategy`: settings.injection.strategy;
   * `memoryFromCompression`: the setting of a workspace `newWorkspace` makes (its default when not given);
   * `delegate`: whether the person hands the work to a subagent (the scenario reads it as `delegates`); `state`:
   * whether the workspace's state source is switched on (`stateSource`).
   */
  constructor(
    start: string,
    options: Options = {},
    shared?: { clock: SimulatedClock; turns: Turn[]; actions: Action[] },
  ) {
    this.clock = shared?.clock ?? new SimulatedClock(start);
    this.turns = shared?.turns ?? [];
    this.actions = shared?.actions ?? [];
    this.#options = options;
    if (!shared) setClock(this.clock.now);
  }

  /** Moves this conversation (before `open`) into a workspace of its own, made now. */
  async newWorkspace(): Promise<string> {
    const workspace = await addWorkspace(OPERATOR, { name: `eval ${this.id}` });
    if (this.#options.memoryFromCompression !== undefined) {
      await editWorkspace(workspace.id, {
        settings: { memory: { fromCompression: this.#options.memoryFromCompression } },
      });
    }
    this.#log("new workspace", {
      id: workspace.id,
      memoryFromCompression: this.#options.memoryFromCompression ?? true,
    });
    this.#workspaceId = workspace.id;
    return workspace.id;
  }

  get delegates(): boolean {
    return this.#options.delegate ?? false;
  }

  /**
   * An http state source of this conversation's workspace at `url` (the scenario's own server on loopback), switched
   * on unless the variant says off.
   */
  async stateSource(name: string, url: string): Promise<void> {
    const enabled = this.#options.state ?? true;
    this.#log("state source", { name, enabled });
    await addStateSource(this.#workspaceId, { name, kind: "http", url, enabled, refreshSeconds: 60 });
  }

  /** A knowledge file in this conversation's workspace, as the upload route stores it. */
  async knowledge(path: string, content: string): Promise<void> {
    this.#log("knowledge file", { path, characters: content.length });
    await saveKnowledge(this.#workspaceId, path, content);
  }

  /** Another conversation in the same workspace, on the same clock, recording into the same turns. */
  sibling(): EvalConversation {
    const other = new EvalConversation("", this.#options, {
      clock: this.clock,
      turns: this.turns,
      actions: this.actions,
    });
    other.#workspaceId = this.#workspaceId;
    return other;
  }

  async open({
    settings = {},
    mode,
  }: {
    settings?: Record<string, unknown>;
    mode?: "build" | "plan";
  } = {}): Promise<void> {
    await ensureConversation({ id: this.id, settings: {}, workspaceId: this.#workspaceId });
    const strategy = this.#options.strategy ? { strategy: this.#options.strategy } : {};
    const injection = {
      ...(settings.injection as object | undefined),
      ...strategy,
      injectRuntimeState: this.#options.hints ?? true,
    };
    await this.patch({ settings: { ...settings, injection }, ...(mode ? { mode } : {}) });
  }

  /** PATCH /api/conversations/:id, as the person's settings panel sends it. */
  async patch(patch: { settings?: Record<string, unknown>; mode?: "build" | "plan" }): Promise<void> {
    this.#log("patch", patch);
    await updateConversationFields(this.id, patch);
  }

  advance(by: { hours?: number; minutes?: number }): void {
    this.#log("advance clock", by);
    this.clock.advance(by);
  }

  async addTask(subject: string): Promise<Task> {
    this.#log("person adds task", subject);
    return addTaskByPerson(this.id, { subject });
  }

  async editTask(id: string, change: { status?: Task["status"]; subject?: string }): Promise<Task> {
    this.#log("person edits task", { id, ...change });
    return editTaskByPerson(this.id, id, change);
  }

  tasks(): Promise<Task[]> {
    return listConversationTasks(this.id);
  }

  async compact(): Promise<boolean> {
    const result = await compactNow(this.id, OPERATOR);
    this.#log("compress now", { compressed: result.compressed });
    return result.compressed;
  }

  async usage(): Promise<ContextUsage> {
    const usage = (await getConversationView(this.id)).contextUsage;
    if (!usage) throw new Error("the conversation's context usage is not known yet");
    return usage;
  }

  /** One turn: the person's message through the real chat path, drained, then read back as stored. */
  async say(text: string): Promise<Turn> {
    const started = performance.now();
    const message = { id: generateId(), role: "user" as const, parts: [{ type: "text" as const, text }] };
    const response = await startReply({ request: { id: this.id, message } });
    await response.text();
    const history = await listMessages({ conversationId: this.id });
    const reply = history.at(-1)!;
    const turn = describeReply(reply, text, this.clock.now(), performance.now() - started);
    this.turns.push(turn);
    return turn;
  }

  #log(action: string, detail?: unknown) {
    this.actions.push({ at: this.clock.now().toISOString(), action, detail });
  }
}

export function describeReply(reply: ChatMessage, said: string, at: Date, wallMs: number): Turn {
  const turn: Turn = {
    at: at.toISOString(),
    said,
    answer: "",
    status: reply.metadata?.status ?? "complete",
    steps: 0,
    toolCalls: [],
    hints: [],
    compressions: [],
    calls: (reply.metadata?.usage ?? []) as CallFigures[],
    wallMs: Math.round(wallMs),
  };
  const texts: string[] = [];
  for (const part of reply.parts) {
    if (part.type === "text") texts.push(part.text);
    else if (part.type === "step-start") turn.steps++;
    else if (part.type === "data-hint") turn.hints.push(String((part.data as { text?: unknown }).text ?? ""));
    else if (part.type === "data-compression") turn.compressions.push(part.data as CompressionData);
    else if (part.type.startsWith("tool-")) {
      const tool = part as { input?: unknown; output?: unknown; errorText?: string };
      turn.toolCalls.push({
        tool: part.type.slice(5),
        input: tool.input,
        output: tool.output,
        ...(tool.errorText ? { error: tool.errorText } : {}),
      });
    }
  }
  turn.answer = texts.join("\n").trim();
  if (reply.metadata?.error) turn.answer ||= `[${turn.status}: ${reply.metadata.error}]`;
  return turn;
}
