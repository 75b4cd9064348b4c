// The conversation as the API and the page show it, and its export/import format.
import { resolveSettings, type Settings, validateSettings } from "../agent/settings.ts";
import { ApiError } from "../api/errors.ts";
import type { ImportBody } from "../api/schemas.ts";
import type { ChatMessage, ContextUsage, ModelInfo, Task } from "../chat-message.ts";
import { getDb, LONG_TRANSACTION, sqliteDirect } from "../db/client.ts";
import { type BranchPoint, branchPoints } from "../agent/branches.ts";
import { listBranches } from "../db/branches.ts";
import { finishInterruptedBranchMove } from "./branches.ts";
import { getConversation } from "../db/conversations.ts";
import { listMessages, loadHistory, settleStaleReplies } from "../db/messages.ts";
import type { ImportedRows } from "../db/rows.ts";
import { listTasks } from "../db/tasks.ts";
import { modelInfoFor } from "../ai/providers/index.ts";
import { replyLock } from "./live/reply-lock.ts";
import { parseAgentState } from "./agent-state.ts";
import { prepareAttachments } from "./attachments.ts";
import { cacheFigures, precountCacheFigures } from "./cache-accounting.ts";
import { tailStart } from "./compression.ts";
import { measureContext } from "./context-measure.ts";
import { checkModelChoice } from "./conversation-model.ts";
import { conversationSystemPrompt } from "./system-prompt.ts";
import { forgetCalls } from "./cache-accounting.ts";
import { precountTokens, warmTokenCounts } from "./context-usage.ts";
import { convertOptionsFor, modelMessagesOf } from "./model-messages.ts";
import { warmMessageIndex } from "./record-turn.ts";
import { warmHintScan } from "./runtime-hints.ts";
import { type PlanView, planView } from "./plan.ts";
import { type SubagentFields, subagentFields } from "./subagent-view.ts";

export type ConversationView = {
  id: string;
  workspaceId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  settings: Settings;
  messages: ChatMessage[];
  tasks: Task[];
  contextUsage: ContextUsage | null;
  /** The model the conversation uses (its own choice, else the default). */
  model: ModelInfo;
  /** Where the person can switch between alternatives (‹ index/count ›, on the message `messageId`). */
  branches: BranchPoint[];
} & PlanView &
  SubagentFields;

export async function getConversationView(id: string): Promise<ConversationView> {
  const conversation = await getConversation({ id });
  if (!conversation) throw new ApiError("not_found", `Conversation ${id} does not exist.`);
  await settleStaleReplies({ conversationId: id, activeIds: await replyLock().activeIds(id) });
  await finishInterruptedBranchMove(id);
  const settings = resolveSettings(conversation.settings);
  const [messages, tasks, plan, prompt, branchRecords, subagents] = await Promise.all([
    listMessages({ conversationId: id }),
    listTasks({ conversationId: id }),
    planView(id, conversation.mode),
    conversationSystemPrompt(id, settings, conversation.model),
    listBranches({ conversationId: id }),
    subagentFields(id),
  ]);
  const state = parseAgentState(conversation.agentState);
  // A long conversation's counts and cache figures are summed in slices first, so that measuring it is a lookup.
  await precountTokens(messages);
  await precountCacheFigures(messages);
  const contextUsage = { ...measureContext({ settings, history: messages, compression: state.compression, system: prompt.text, model: conversation.model }), cache: cacheFigures(messages) };
  return {
    id: conversation.id,
    workspaceId: conversation.workspaceId,
    title: conversation.title,
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    settings,
    messages,
    tasks,
    contextUsage,
    model: modelInfoFor(conversation.model),
    branches: branchPoints(branchRecords, messages.map((m) => m.id)),
    ...plan,
    ...subagents,
  };
}

export async function exportConversation(id: string) {
  const view = await getConversationView(id);
  const conversation = await getConversation({ id });
  return {
    version: 1 as const,
    exportedAt: new Date().toISOString(),
    conversation: {
      id: view.id,
      title: view.title,
      createdAt: view.createdAt,
      updatedAt: view.updatedAt,
      settings: conversation?.settings ?? {},
      messages: view.messages,
      tasks: view.tasks,
      mode: view.mode,
      /** The model the conversation chose (null: the server's default); each reply's own is in its metadata. */
      model: conversation?.model ?? null,
      plan: view.plan,
      planVersions: view.planVersions.map(({ content, author, createdAt }) => ({ content, author, createdAt })),
    },
  };
}

/** `settings` with the importing browser's zone, unless they name one: a conversation, imported or new, lives in it. */
function withZone(settings: Record<string, unknown>, timezone: string | undefined): object {
  const injection = (settings.injection ?? {}) as Record<string, unknown>;
  if (!timezone || injection.timezone !== undefined) return settings;
  return { ...settings, injection: { ...injection, timezone } };
}

/**
 * Imports an exported conversation under a new id (or the exported one when it is free). Its settings are applied
 * only when the person asks for it (`applySettings`), validated like a PATCH; otherwise it gets the defaults, in the
 * importing browser's `timezone` (as a new conversation does) rather than UTC. Its
 * hints are marked imported: they stay in the transcript but are never sent to the model as reminders.
 */
export async function importConversation(
  body: ImportBody,
  newId: () => string,
  { applySettings = false, timezone }: { applySettings?: boolean; timezone?: string } = {},
): Promise<{ id: string }> {
  const source = body.conversation;
  if (applySettings) {
    const check = validateSettings(source.settings);
    if (!check.ok) {
      const field = check.field === "settings" ? "conversation.settings" : `conversation.settings.${check.field}`;
      throw new ApiError("bad_request", `Invalid conversation.settings${check.field === "settings" ? " " : "."}${check.message}.`, field);
    }
  }
  // A model this server cannot use is refused, naming the field (remove it to import with the default model).
  const model = source.model ? checkImportedModel(source.model) : null;
  const db = await getDb();
  const taken = source.id ? await getConversation({ id: source.id }) : null;
  const id = source.id && !taken ? source.id : newId();
  // A conversation deleted under this id earlier must not be compared with this one's first call.
  forgetCalls(id);
  const seen = new Set<string>();
  for (const m of source.messages) {
    if (seen.has(m.id)) throw new ApiError("bad_request", `Invalid conversation.messages: duplicate message id ${m.id}.`);
    seen.add(m.id);
  }
  // A person's attachments are checked as chat checks them, and a PDF's text is extracted again here (never taken
  // from the file).
  const messages = [];
  for (const [i, m] of source.messages.entries()) {
    const hasFiles = m.role === "user" && m.parts.some((p) => p.type === "file");
    messages.push(hasFiles ? { ...m, parts: await prepareAttachments(m.parts, `conversation.messages.${i}.parts`) } : m);
  }
  const taskIds = new Set(source.tasks.map((t) => t.id));
  if (taskIds.size !== source.tasks.length) throw new ApiError("bad_request", "Invalid conversation.tasks: duplicate task id.");
  // Hintline's own exports never hold a link to a missing task (deleting a task removes the links to it).
  source.tasks.forEach((t, i) => {
    for (const field of ["blocks", "blockedBy"] as const) {
      const missing = t[field].find((linked) => !taskIds.has(linked));
      if (missing !== undefined) {
        throw new ApiError("bad_request", `Invalid conversation.tasks.${i}.${field}: task ${missing} is not in the import.`, `conversation.tasks.${i}.${field}`);
      }
    }
  });
  const rows: ImportedRows = {
    conversation: {
      id,
      title: source.title || "Imported chat",
      settings: withZone(applySettings ? (source.settings as Record<string, unknown>) : {}, timezone),
      taskSeq: source.tasks.reduce((max, t) => Math.max(max, Number(t.id)), 0),
      // The positions handed out below; the next appended message takes the one after them.
      messageSeq: source.messages.length,
      // The agent of the new conversation has been told nothing: in plan mode its first reply says so again.
      mode: source.mode,
      planSeq: source.planVersions.length,
      model,
    },
    messages: messages.map((m, position) => {
      const { createdAt: _c, status, ...metadata } = (m.metadata ?? {}) as Record<string, unknown>;
      const stored = status === "error" || status === "incomplete" ? status : "complete";
      return { id: m.id, role: m.role, position, parts: m.parts.map(markImportedHint) as object[], metadata: metadata as object, status: stored };
    }),
    tasks: source.tasks.map((t, position) => ({
      id: t.id,
      subject: t.subject,
      description: t.description,
      status: t.status,
      owner: t.owner ?? null,
      blocks: t.blocks,
      blockedBy: t.blockedBy,
      metadata: t.metadata as object,
      position,
    })),
    planVersions: source.planVersions.map((v, i) => ({
      version: i + 1,
      content: v.content,
      author: v.author,
      createdAt: v.createdAt ? new Date(v.createdAt) : new Date(),
    })),
  };
  // On SQLite one synchronous transaction of prepared statements; else (or when it is refused) Prisma's.
  if (!sqliteDirect()?.importConversation(rows)) {
    await db.$transaction(async (tx) => {
      await tx.conversation.create({ data: rows.conversation });
      await tx.message.createMany({ data: rows.messages.map((m) => ({ conversationId: id, ...m })) });
      await tx.task.createMany({ data: rows.tasks.map((t) => ({ conversationId: id, ...t })) });
      await tx.planVersion.createMany({ data: rows.planVersions.map((v) => ({ conversationId: id, ...v })) });
      // The largest import (20,000 messages) takes seconds on a busy PostgreSQL: more than a default transaction's.
    }, LONG_TRANSACTION);
  }
  await warmHistory(id);
  return { id };
}

function checkImportedModel(id: string): string {
  try {
    return checkModelChoice(id);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const reason = error.message.replace(/^Invalid model: /, "");
    throw new ApiError("bad_request", `Invalid conversation.model: ${reason} Or leave the model out to import with the default one.`, "conversation.model");
  }
}

/** Only the harness writes hints: whatever an import says about `imported`, its hints are marked as imported. */
function markImportedHint<P extends { type: string; data?: unknown }>(part: P): P {
  if (part.type !== "data-hint") return part;
  const data = typeof part.data === "object" && part.data !== null && !Array.isArray(part.data) ? part.data : {};
  return { ...part, data: { ...data, imported: true } };
}

/**
 * An imported conversation is usually continued: its history goes into the cache and its messages are counted,
 * indexed, scanned for hints and converted to model messages now, so the first
 * reply does not load, tokenize, scan or convert the whole of it.
 */
async function warmHistory(id: string): Promise<void> {
  const conversation = await getConversation({ id });
  if (!conversation) return;
  const { messages } = await loadHistory({ conversationId: id, version: { messageSeq: conversation.messageSeq, createdAt: conversation.createdAt } });
  await precountTokens(messages);
  warmTokenCounts(messages);
  cacheFigures(messages);
  warmMessageIndex(messages);
  const { compression } = parseAgentState(conversation.agentState);
  const tail = messages.slice(tailStart(messages, compression));
  warmHintScan(tail, resolveSettings(conversation.settings));
  modelMessagesOf(tail, convertOptionsFor(resolveSettings(conversation.settings)));
}
