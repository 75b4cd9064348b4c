// Scans the model context (newest to oldest) for what the agent already knows: the newest own hint carrying the
// time, and whether it has seen the task list. Only the agent's own hints count (never an imported one, which the
// model does not receive); the compression summary is never part of what is scanned. A replace-strategy status is
// never part of a later call (it is removed before the next one), so it does not count as known either.
import type { ChatMessage, HintData, HintSource } from "../../chat-message.ts";

export type ContextScan = {
  /** The text of the newest own hint containing `<current-time>`. */
  lastTimeText?: string;
  /** A task tool call or an own `<tasks>` hint is in the context. */
  tasksSeen: boolean;
  /** The range holds a view of the whole list: an own `<tasks>` hint or a TaskList result. */
  listSeen?: boolean;
  /** The agent changed its tasks (a TaskCreate or TaskUpdate result) after the newest view of the whole list. */
  tasksChanged?: boolean;
};

/** Calls that change the task list, and the call that shows it whole. */
const CHANGES_TASKS = new Set(["TaskCreate", "TaskUpdate"]);
const SHOWS_TASKS = "TaskList";

export function sameSource(a: HintSource | undefined, b: HintSource): boolean {
  return !!a && a.label === b.label && a.sublabel === b.sublabel;
}

function toolNameOf(type: string, part: unknown): string | undefined {
  if (type === "dynamic-tool") return (part as { toolName?: string }).toolName;
  return type.startsWith("tool-") ? type.slice(5) : undefined;
}

const answered = (part: unknown): boolean => {
  const state = (part as { state?: unknown }).state;
  return state === "output-available" || state === "output-error";
};

export function scanContext(
  messages: readonly ChatMessage[],
  {
    source,
    taskToolNames,
    openTasks = true,
  }: {
    source: HintSource;
    taskToolNames: readonly string[];
    /** With no open tasks the agent counts as aware of them, so the scan can stop at the newest time hint. */
    openTasks?: boolean;
  },
  /** The reply in progress, scanned before `messages` (saves copying the history on every step). */
  latest?: ChatMessage,
): ContextScan {
  let lastTimeText: string | undefined;
  let tasksSeen = !openTasks;
  let listSeen = false;
  let tasksChanged = false;
  const count = messages.length + (latest ? 1 : 0);
  for (let m = count - 1; m >= 0; m--) {
    const parts = (latest && m === messages.length ? latest : messages[m]!).parts;
    for (let p = parts.length - 1; p >= 0; p--) {
      const part = parts[p]!;
      if (part.type === "data-hint") {
        const data = part.data as HintData | undefined;
        if (
          !data ||
          typeof data.text !== "string" ||
          data.imported === true ||
          data.replace === true ||
          data.superseded === true ||
          !sameSource(data.source, source)
        )
          continue;
        if (lastTimeText === undefined && data.text.includes("<current-time>")) lastTimeText = data.text;
        if (data.text.includes("<tasks>")) tasksSeen = listSeen = true;
      } else {
        const name = toolNameOf(part.type, part);
        // Only a call the model receives counts: one left without a result by a stopped reply is not sent.
        if (name && taskToolNames.includes(name) && answered(part)) tasksSeen = true;
        if (name && answered(part)) {
          if (name === SHOWS_TASKS) listSeen = true;
          else if (!listSeen && CHANGES_TASKS.has(name)) tasksChanged = true;
        }
      }
      if (lastTimeText !== undefined && tasksSeen && listSeen)
        return { lastTimeText, tasksSeen, listSeen, tasksChanged };
    }
  }
  return { lastTimeText, tasksSeen, listSeen, tasksChanged };
}
