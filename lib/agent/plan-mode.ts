// Plan mode, the pure rules: which tools refuse while planning, when the agent is told about a switch, and the
// reminder texts (AgentScope's PlanModeMiddleware wording). The tool list and the system prompt never change with the
// mode (both sit in the provider's cached prefix): the mode reaches the agent as a hint, and write tools refuse.
import { type ConversationMode, type HintSource, isConversationMode, type PlanAuthor } from "../chat-message.ts";
import { neutralizeHintTags } from "./hints/neutralize-tags.ts";

export { type ConversationMode, isConversationMode, type PlanAuthor };
export const DEFAULT_MODE: ConversationMode = "build";

/** What a tool does to the conversation's state: reads it, writes it (refused while planning), or writes the plan. */
export type ToolAccess = "read" | "write" | "plan";

/** The longest plan, in characters (PlanWrite and the API refuse a longer one, naming this limit). */
export const PLAN_MAX_CHARS = 50_000;
/** Plan versions kept per conversation; older ones are dropped as new ones come. */
export const PLAN_VERSIONS_KEPT = 50;
export const MODE_HINT_SOURCE: HintSource = { label: "System", sublabel: "Mode" };

/** Whether a tool with this access refuses in this mode. */
export function refusesInMode(access: ToolAccess, mode: ConversationMode): boolean {
  return mode === "plan" && access === "write";
}

/** The refusal's text (its first line names the error type; the caller adds the arguments and the call counter); a
 * subagent's (`child`) advice does not send it to PlanWrite. */
export function planModeRefusal(
  toolName: string,
  { child = false }: { child?: boolean } = {},
): { type: string; text: string; advice: string } {
  return {
    type: "PlanModeError",
    text: `PlanModeError: PLAN MODE is on (read-only): ${toolName} would change the conversation's state, so it was not run and nothing changed.`,
    // A subagent has no PlanWrite: it reports what it found to the agent that plans.
    advice: child
      ? "Keep investigating with the read tools and report what you found in your answer; once the person approves the plan, this call works."
      : "Keep investigating with the read tools (TaskList, TaskGet) and write your plan with PlanWrite; the person switches to BUILD mode when they approve it, and then this call works.",
  };
}

/**
 * Whether this step carries a Mode reminder: when the mode differs from the one the agent was last told (a new
 * conversation in build mode was told nothing and needs nothing), or when planning and the context was just
 * compressed (the earlier reminder is no longer in what the model sees).
 */
export function modeReminderDue({
  mode,
  toldMode,
  compressed = false,
}: {
  mode: ConversationMode;
  toldMode: ConversationMode | undefined;
  compressed?: boolean;
}): boolean {
  if (mode !== (toldMode ?? DEFAULT_MODE)) return true;
  return compressed && mode === "plan";
}

/** The plan's share of the BUILD reminder, so that the whole reminder stays within a hint's 4,096 characters. */
export const PLAN_IN_REMINDER_MAX_CHARS = 3_000;

const PLAN_TEXT =
  "PLAN MODE is active (read-only). Investigate the problem and draft a plan with PlanWrite, but do NOT modify tasks or anything else: TaskCreate, TaskUpdate and every other tool that writes refuse while planning. Read what you need (TaskList, TaskGet), then write the whole plan as markdown with PlanWrite (each call replaces it; keep the steps as a list). The person reviews the plan, may edit it, and switches to BUILD mode when they approve it.";
const BUILD_PREFIX = "You have switched from PLAN to BUILD mode; the read-only restriction is lifted.";
// A subagent has no PlanWrite and no plan of its own: it investigates for the agent that plans, and reports.
const CHILD_PLAN_TEXT =
  "PLAN MODE is active (read-only) in the conversation that started you. Investigate and report what you find in your answer, but do NOT modify tasks or anything else: every tool that writes refuses while planning. The agent that started you drafts the plan from your findings.";
const CHILD_BUILD_TEXT =
  "The plan was approved and BUILD mode is on again; the read-only restriction is lifted. Go on with your task.";

/** The plan's text as the reminder carries it: neutralised (it is model and person text) and cut to its share. */
export function planExcerpt(content: string, max = PLAN_IN_REMINDER_MAX_CHARS): string {
  const safe = neutralizeHintTags(content.trim());
  if (safe.length <= max) return safe;
  const note = `\n… [the plan goes on for ${safe.length - max} more characters: read it whole with PlanRead]`;
  return safe.slice(0, Math.max(0, max - note.length)) + note;
}

export type ModeReminder = { fields: Record<string, string>; text: string };

export type ApprovedPlan = { content: string; version: number };

/**
 * The reminder for a switch to `mode`; `plan` is the approved plan when there is one. A subagent's (`child`) says what a
 * child does while the person plans, and carries no plan. The reminder names the plan's
 * version and carries its start; PlanRead reads the whole of it (a plan holds up to PLAN_MAX_CHARS).
 */
export function renderModeReminder(
  mode: ConversationMode,
  plan?: ApprovedPlan | null,
  { child = false }: { child?: boolean } = {},
): ModeReminder {
  if (child)
    return {
      fields: { mode },
      text: `<system-reminder>\n${mode === "plan" ? CHILD_PLAN_TEXT : CHILD_BUILD_TEXT}\n</system-reminder>`,
    };
  if (mode === "plan") {
    return { fields: { mode: "plan" }, text: `<system-reminder>\n${PLAN_TEXT}\n</system-reminder>` };
  }
  const content = plan?.content.trim() ?? "";
  const size = `${(plan?.content.length ?? 0).toLocaleString("en-US")} characters`;
  const body =
    plan && content
      ? `${BUILD_PREFIX} An approved plan exists (version ${plan.version}, ${size}; PlanRead reads it whole):\n<approved-plan>\n${planExcerpt(content)}\n</approved-plan>\nCarry it out: turn its steps into tasks (TaskCreate) and work through them, keeping the task list up to date.`
      : `${BUILD_PREFIX} No plan was written; go ahead with the person's request.`;
  const text = `<system-reminder>\n${body}\n</system-reminder>`;
  const fields: Record<string, string> =
    plan && content
      ? { mode: "build", plan: "approved", version: String(plan.version) }
      : { mode: "build", plan: "none" };
  return { fields, text };
}
