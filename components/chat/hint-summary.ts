// Pure: a one-line, person-readable summary of a hint's fields ("14:05 Europe/Berlin · 2 open tasks · 70% of context").
import type { HintData } from "@/lib/chat-message";

export type HintKind = "time" | "tasks" | "context" | "custom" | "mode" | "workspace";
export type HintSummaryItem = { kind: HintKind; label: string };

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

export function summarizeHint(data: HintData, { contextWindow, locale }: { contextWindow?: number; locale?: string } = {}): HintSummaryItem[] {
  const fields = data.fields ?? {};
  // A Mode reminder (plan mode switched on or off) is one item in plain words.
  if (data.source?.sublabel === "Mode" && fields.mode !== undefined) {
    const label = fields.mode === "plan" ? "Plan mode on" : fields.plan === "approved" ? "Build mode: plan approved" : "Build mode";
    return [{ kind: "mode", label }];
  }
  // A Workspace reminder (memory, knowledge, skills or instructions changed) in plain words; the chip opens to the details.
  if (data.source?.sublabel === "Workspace") return [{ kind: "workspace", label: "Workspace update" }];
  const items: HintSummaryItem[] = [];
  if (fields["current-time"] !== undefined) {
    const zone = fields.timezone;
    const time = formatTime(data.createdAt, zone, locale) ?? fields["current-time"];
    items.push({ kind: "time", label: zone ? `${time} ${zone}` : time });
  }
  const since = fields["time-since-last-message"];
  if (since !== undefined) items.push({ kind: "time", label: since.replace(/ since the person's previous message$/, " since your last message") });
  if (fields.tasks !== undefined) {
    const m = /You have (\d+) in-progress tasks and (\d+) pending tasks/.exec(fields.tasks);
    const open = m ? Number(m[1]) + Number(m[2]) : undefined;
    const count = open === undefined ? "tasks" : `${open} open task${open === 1 ? "" : "s"}`;
    items.push({ kind: "tasks", label: fields.tasks.startsWith("The user updated") ? `You updated tasks · ${count}` : count });
  }
  if (fields["context-length"] !== undefined) {
    const m = /contains (\d+) tokens/.exec(fields["context-length"]);
    const used = m ? Number(m[1]) : undefined;
    const label =
      used !== undefined && contextWindow
        ? `${Math.round((used / contextWindow) * 100)}% of context`
        : used !== undefined
          ? `${used.toLocaleString(locale)} tokens in context`
          : "context usage";
    items.push({ kind: "context", label });
  }
  for (const [key, value] of Object.entries(fields)) {
    if (!BUILT_INS.has(key)) items.push({ kind: "custom", label: `${key}: ${value.length > 40 ? `${value.slice(0, 39)}…` : value}` });
  }
  return items;
}
