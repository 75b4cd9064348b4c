// Pure: a one-line summary of a hint in plain words ("Time update 14:05 Europe/Berlin · Task update 2 open tasks ·
// Context 70 % full"), for people who never heard of a system reminder.
import type { HintData } from "@/lib/chat-message";

export type HintKind =
  | "time"
  | "tasks"
  | "context"
  | "custom"
  | "mode"
  | "workspace"
  | "continue"
  | "steps"
  | "agents"
  | "state";
/** `label` says in plain words what kind of update the model got; `detail`, when there is one, what it said. */
export type HintSummaryItem = { kind: HintKind; label: string; detail?: string };

const BUILT_INS = new Set(["current-time", "timezone", "time-since-last-message", "tasks", "context-length"]);

function formatTime(createdAt: string, zone: string | undefined, locale?: string): string | undefined {
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return undefined;
  try {
    return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone: zone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone: "UTC" }).format(date);
  }
}

export function summarizeHint(
  data: HintData,
  { contextWindow, locale }: { contextWindow?: number; locale?: string } = {},
): HintSummaryItem[] {
  const fields = data.fields ?? {};
  // A Mode reminder (plan mode switched on or off) is one item in plain words.
  if (data.source?.sublabel === "Mode" && fields.mode !== undefined) {
    const label =
      fields.mode === "plan" ? "Plan mode on" : fields.plan === "approved" ? "Build mode: plan approved" : "Build mode";
    return [{ kind: "mode", label }];
  }
  // A Workspace reminder (memory, knowledge, skills or instructions changed) in plain words; the chip opens to the details.
  if (data.source?.sublabel === "Workspace") {
    // MCP tools that changed under the conversation: which ones, since the chip offers to take them in.
    if (fields.mcpTools !== undefined && fields.changes?.startsWith("MCP: "))
      return [{ kind: "workspace", label: "MCP tools changed", detail: fields.changes.slice(5) }];
    // MCP tools the conversation's list left out (too many, too deep, too big, over the window's share): how many, per server.
    if (fields.mcpLeftOut !== undefined)
      return [{ kind: "workspace", label: "MCP tools left out", detail: fields.mcpLeftOut }];
    return [{ kind: "workspace", label: "Workspace update" }];
  }
  // Subagents that finished in the background: which, in words ("“summarise the notes” finished").
  if (data.source?.sublabel === "Subagents" && fields.agents !== undefined) {
    const listed = fields.agents.split(", ");
    const more = /^\+(\d+)$/.exec(listed.at(-1) ?? "");
    const count = more ? listed.length - 1 + Number(more[1]) : listed.length;
    const detail = fields.ended ?? fields.agents.replace(/agent:([a-z0-9-]+):\d+ (\w+)/g, "$1 $2");
    return [{ kind: "agents", label: count === 1 ? "Subagent finished" : `${count} subagents finished`, detail }];
  }
  // A state source (the person's own): "State · deploy" and the fields that changed, or since when it is unavailable.
  if (data.source?.label === "State" && data.state) {
    const label = `State · ${data.source.sublabel}`;
    if (data.state.unavailableSince !== undefined) return [{ kind: "state", label, detail: "unavailable" }];
    const changed = Object.entries(fields).map(
      ([key, value]) => `${key} ${value.length > 40 ? `${value.slice(0, 39)}…` : value}`,
    );
    return [{ kind: "state", label, ...(changed.length ? { detail: changed.join(", ") } : {}) }];
  }
  // Continue: the model was asked to go on where its reply stopped.
  if (data.source?.sublabel === "Continue") return [{ kind: "continue", label: "Asked to continue" }];
  // The step limit: the reply's last model call, asked to answer without tools.
  if (data.source?.sublabel === "Steps") {
    return [
      {
        kind: "steps",
        label: "Step limit reached",
        ...(fields.steps ? { detail: `${fields.steps} model calls` } : {}),
      },
    ];
  }
  const items: HintSummaryItem[] = [];
  const time: string[] = [];
  if (fields["current-time"] !== undefined) {
    const zone = fields.timezone;
    const at = formatTime(data.createdAt, zone, locale) ?? fields["current-time"];
    time.push(zone ? `${at} ${zone}` : at);
  }
  const since = fields["time-since-last-message"];
  // Said to the agent ("since your last reply"); a hint stored before counted from the person's previous message.
  if (since !== undefined)
    time.push(
      since
        .replace(/ since your last reply$/, " since the last reply")
        .replace(/ since the person's previous message$/, " since your last message"),
    );
  if (time.length) items.push({ kind: "time", label: "Time update", detail: time.join(", ") });
  if (fields.tasks !== undefined) {
    const m = /You have (\d+) in-progress tasks and (\d+) pending tasks/.exec(fields.tasks);
    const open = m ? Number(m[1]) + Number(m[2]) : undefined;
    const count = open === undefined ? undefined : `${open} open task${open === 1 ? "" : "s"}`;
    const detail = fields.tasks.startsWith("The user updated")
      ? ["you changed the list", count].filter(Boolean).join(", ")
      : count;
    items.push({ kind: "tasks", label: "Task update", ...(detail ? { detail } : {}) });
  }
  if (fields["context-length"] !== undefined) {
    const m = /contains (\d+) tokens/.exec(fields["context-length"]);
    const used = m ? Number(m[1]) : undefined;
    if (used !== undefined && contextWindow)
      items.push({ kind: "context", label: `Context ${Math.round((used / contextWindow) * 100)} % full` });
    else
      items.push({
        kind: "context",
        label: "Context update",
        ...(used !== undefined ? { detail: `${used.toLocaleString(locale)} tokens` } : {}),
      });
  }
  for (const [key, value] of Object.entries(fields)) {
    if (!BUILT_INS.has(key))
      items.push({ kind: "custom", label: key, detail: value.length > 40 ? `${value.slice(0, 39)}…` : value });
  }
  return items;
}
