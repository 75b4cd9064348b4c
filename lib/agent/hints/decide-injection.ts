// The injection decision (docs/injection.md): before every model call each dimension — time, tasks, context
// usage — decides on its own; whatever fires goes into one hint. Pure: the clock is an argument.
import type { ChatMessage } from "../../chat-message.ts";
import type { InjectionConfig } from "../settings.ts";
import { isValidTimeZone } from "../settings.ts";
import { readTime, writeTime } from "./read-time.ts";
import { orderFields, readField, renderHint } from "./render-hint.ts";
import { type OpenTask, openTasksList } from "./open-tasks.ts";
import type { ContextScan } from "./scan-context.ts";

export type InjectionInput = {
  config: InjectionConfig;
  now: Date;
  scan: ContextScan;
  /** The open task counts, and (for `tasksDetail: "list"`) the open tasks themselves. */
  tasks: { pending: number; inProgress: number; open?: readonly OpenTask[] };
  /** The person changed the task list since the agent last saw it. */
  tasksEditedByPerson: boolean;
  /** Context usage: only considered on the first model call of a reply. */
  context?: { inputTokens: number; contextWindow: number; triggerRatio: number };
  isFirstCall: boolean;
  /**
   * The context was just compressed (the one moment the input is rewritten anyway): its new size is told whatever it
   * is, so that no figure from before the compression, kept in the tail, stands as the latest.
   */
  compressed?: boolean;
  /**
   * Replace strategy: the status is the agent's only picture of the state (the previous one is gone), so every
   * built-in field is rendered: time, timezone, the task counts (also none) and the context size.
   */
  full?: boolean;
  /** Timestamps on, first call of a reply: how long before the person's message the agent's last reply ended (ms). */
  sinceLastReply?: number;
};

export type Injection = { fields: Record<string, string>; text: string };

const HOUR_MS = 3_600_000;

/** The zone the clock runs in: the configured one when it is a real IANA zone, else UTC. */
function clockZone(zone: string): string {
  return isValidTimeZone(zone) ? zone : "UTC";
}

/** When the time recorded in a hint was, or undefined when it is missing or does not parse. */
export function recordedTime(hintText: string, config: InjectionConfig): Date | undefined {
  const value = readField(hintText, "current-time");
  if (!value) return undefined;
  const zone = clockZone(readField(hintText, "timezone") ?? config.timezone);
  return readTime(value, config.timeFormat, zone);
}

export function timeIsStale(scan: ContextScan, config: InjectionConfig, now: Date): boolean {
  if (!scan.lastTimeText) return true;
  const recorded = recordedTime(scan.lastTimeText, config);
  if (!recorded) return true;
  const elapsedHours = (now.getTime() - recorded.getTime()) / HOUR_MS;
  return elapsedHours < 0 || elapsedHours > config.timeInterval;
}

const EDIT_NOTE = "The user updated the task list. ";

export function tasksText({ pending, inProgress, open }: InjectionInput["tasks"], byPerson: boolean): string {
  const counts = `You have ${inProgress} in-progress tasks and ${pending} pending tasks. Use \`TaskList\` to view them if you don't know.`;
  const list = open?.length ? `\nOpen tasks:\n${openTasksList(open)}` : "";
  return `${byPerson ? `${EDIT_NOTE}${counts}` : counts}${list}`;
}

export function contextText(inputTokens: number, triggerTokens: number): string {
  return `Your current context contains ${inputTokens} tokens. When reaching ${triggerTokens} tokens, your context will be compressed.`;
}

/** A pause long enough to be news: more than `timeInterval` hours (the time hint's own staleness bound). */
export function isPause(elapsedMs: number | undefined, config: InjectionConfig): elapsedMs is number {
  return elapsedMs !== undefined && elapsedMs / HOUR_MS > config.timeInterval;
}

/** "2 h 15 min", "3 d 4 h", "45 min" (whole minutes, at least 1). */
export function elapsedText(ms: number): string {
  const minutes = Math.max(1, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return rest ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}

export function sinceText(ms: number): string {
  return `${elapsedText(ms)} since your last reply`;
}

/**
 * When a stored reply ended: its `endedAt`, else (a reply stored before it was kept) the latest time it recorded — a
 * tool result's, a hint's — or its start.
 */
function replyEnd(reply: ChatMessage): number {
  const ended = Date.parse(reply.metadata?.endedAt ?? "");
  if (Number.isFinite(ended)) return ended;
  let latest = Date.parse(reply.metadata?.createdAt ?? "");
  for (const part of reply.parts) {
    const at =
      part.type === "data-hint"
        ? (part.data as { createdAt?: string } | undefined)?.createdAt
        : (part as { resultAt?: unknown }).resultAt;
    const time = typeof at === "string" ? Date.parse(at) : Number.NaN;
    if (Number.isFinite(time) && (!Number.isFinite(latest) || time > latest)) latest = time;
  }
  return latest;
}

/**
 * The pause the person's message (the history's last) ends: how long after the agent's last reply it came (ms); none
 * when it is not the person's or the agent has not replied yet. A long reply is not part of the pause.
 */
export function pauseSinceLastReply(history: readonly ChatMessage[]): number | undefined {
  const person = history.at(-1);
  if (person?.role !== "user") return undefined;
  const reply = history.findLast((m, i) => i < history.length - 1 && m.role === "assistant");
  if (!reply) return undefined;
  const elapsed = Date.parse(person.metadata?.createdAt ?? "") - replyEnd(reply);
  return Number.isFinite(elapsed) && elapsed >= 0 ? elapsed : undefined;
}

export function decideInjection(input: InjectionInput): Injection | null {
  const { config, now, scan, tasks, full = false } = input;
  if (!config.injectRuntimeState) return null;
  const builtIns: Record<string, string> = {};
  const pause = isPause(input.sinceLastReply, config);

  if (full || pause || timeIsStale(scan, config, now)) {
    builtIns["current-time"] = writeTime(now, clockZone(config.timezone), config.timeFormat);
    builtIns.timezone = config.timezone;
  }
  if (pause) builtIns["time-since-last-message"] = sinceText(input.sinceLastReply!);

  const open = tasks.pending + tasks.inProgress;
  // With the list (the default) the open tasks are told again after the agent changed them since it last saw the whole
  // list (a tasks hint or a TaskList result), once per change; the person's changes are told as before.
  const listChanged = config.tasksDetail === "list" && open > 0 && scan.tasksChanged === true;
  if (full || (open > 0 && (input.tasksEditedByPerson || !scan.tasksSeen || listChanged))) {
    builtIns.tasks = tasksText(
      config.tasksDetail === "list" ? tasks : { ...tasks, open: undefined },
      input.tasksEditedByPerson,
    );
  }

  if ((full || input.isFirstCall || input.compressed) && input.context) {
    const { inputTokens, contextWindow, triggerRatio } = input.context;
    const threshold = Math.max(0, triggerRatio - config.contextBufferRatio) * contextWindow;
    if (full || input.compressed || inputTokens > threshold)
      builtIns["context-length"] = contextText(inputTokens, Math.floor(triggerRatio * contextWindow));
  }

  if (Object.keys(builtIns).length === 0) return null;
  const ordered = orderFields(builtIns, config.extraFields);
  return { fields: Object.fromEntries(ordered), text: renderHint(config.template, ordered) };
}
