// Per-conversation settings: the injection rules (docs/injection.md), the context limits, the prompt parts and the
// sampling of the model's answers (temperature, longest reply), with their defaults and validation. Stored settings are partial; `resolveSettings` fills in the defaults.
import { z } from "zod";
import { readTime, writeTime } from "./hints/read-time.ts";
import { INJECTION_STRATEGIES } from "./injection-strategy.ts";
import { OPEN_TASKS_MAX_CHARS, TASKS_DETAILS } from "./hints/open-tasks.ts";
import {
  BUILT_IN_FIELDS,
  DEFAULT_TEMPLATE,
  escapeValue,
  HINT_MAX_CHARS,
  RUNTIME_STATE_PLACEHOLDER,
  renderedLength,
} from "./hints/render-hint.ts";
import { sharedBoundedMap } from "../bounded-map.ts";
import { issueInWords } from "../issue-words.ts";

export { DEFAULT_TEMPLATE, HINT_MAX_CHARS };

export const DEFAULT_TIME_FORMAT = "yyyy-MM-dd'T'HH:mm:ss";
export const DEFAULT_TASK_TOOL_NAMES = ["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"];
export const FIELD_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;

// Building an Intl.DateTimeFormat costs about half a millisecond, and settings are checked several times a turn.
const canonicalZones = new Map<string, string | null>();

/** Every part of a name as IANA writes one: "Asia/Kolkata", "America/Port-au-Prince", "Etc/GMT+5", "US/Eastern". */
const IANA_SPELLING = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z][A-Za-z0-9_+-]*)*$/;

/**
 * The IANA name of a zone ("utc" → "UTC", "asia/shanghai" → "Asia/Shanghai"), or undefined for an unknown zone or a
 * bare offset such as "+05:30". The runtime's ICU data still resolves some current IANA names to older ones
 * ("Asia/Kolkata" → "Asia/Calcutta", "Europe/Kyiv" → "Europe/Kiev"): a name the runtime knows and that is written as
 * IANA writes names is kept as written, so a person's "Asia/Kolkata" stays "Asia/Kolkata".
 */
export function canonicalTimeZone(zone: string): string | undefined {
  const known = canonicalZones.get(zone);
  if (known !== undefined) return known ?? undefined;
  let canonical: string | null = null;
  if (/^[A-Za-z]/.test(zone)) {
    try {
      const resolved = new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
      canonical = resolved.toLowerCase() !== zone.toLowerCase() && IANA_SPELLING.test(zone) ? zone : resolved;
    } catch {
      canonical = null;
    }
  }
  // Bounded: zone strings come from requests.
  if (canonicalZones.size < 1000) canonicalZones.set(zone, canonical);
  return canonical ?? undefined;
}

/** Whether the clock can run in `zone` (any spelling of a known IANA zone). */
export function isValidTimeZone(zone: string): boolean {
  return canonicalTimeZone(zone) !== undefined;
}

export function timeZoneProblem(zone: string): string | undefined {
  const canonical = canonicalTimeZone(zone);
  if (!canonical) return "is not a known IANA timezone";
  if (canonical !== zone) return `is not written as its IANA name: use "${canonical}"`;
  return undefined;
}

// Instants a time format must write and read back exactly, in zones with and without DST and half-hour offsets:
// morning and afternoon, both sides of a year boundary, the hours after the spring and autumn clock changes, and
// the longest month and weekday names (for the size bound). Whole minutes: a format may leave out the seconds.
const ROUND_TRIP_INSTANTS = [
  "2026-07-01T08:05:00Z",
  "2026-07-01T15:45:00Z",
  "2025-12-31T23:59:00Z",
  "2027-01-01T00:01:00Z",
  "2026-03-08T07:30:00Z",
  "2026-03-29T01:30:00Z",
  "2026-10-25T03:15:00Z",
  "2026-11-01T07:30:00Z",
  "2026-09-30T21:37:00Z",
].map((iso) => new Date(iso));
const ROUND_TRIP_ZONES = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Calcutta", "Australia/Sydney"];
/** The longest a rendered time may be. */
export const MAX_TIME_CHARS = 100;

const formatChecks = new Map<string, { problem?: string; maxChars: number }>();

function checkTimeFormat(pattern: string): { problem?: string; maxChars: number } {
  const known = formatChecks.get(pattern);
  if (known) return known;
  let result: { problem?: string; maxChars: number } = { maxChars: 0 };
  try {
    for (const zone of ROUND_TRIP_ZONES) {
      for (const instant of ROUND_TRIP_INSTANTS) {
        const written = writeTime(instant, zone, pattern);
        result.maxChars = Math.max(result.maxChars, written.length);
        const back = readTime(written, pattern, zone);
        if (back?.getTime() !== instant.getTime()) {
          const read = back ? `reads back as ${back.toISOString().slice(0, 16)}Z` : "does not read back";
          const problem = `does not read back as the time it wrote: ${instant.toISOString().slice(0, 16)}Z in ${zone} is written "${written.slice(0, 60)}", which ${read} (a format needs the year, month, day, hours and minutes, with AM/PM for 12-hour hours)`;
          result = { ...result, problem };
          break;
        }
      }
      if (result.problem) break;
    }
    if (!result.problem && result.maxChars > MAX_TIME_CHARS)
      result.problem = `writes up to ${result.maxChars} characters; at most ${MAX_TIME_CHARS}`;
  } catch (error) {
    result = { maxChars: 0, problem: `is not a valid date-fns format: ${(error as Error).message}` };
  }
  if (formatChecks.size < 256) formatChecks.set(pattern, result);
  return result;
}

export function timeFormatProblem(pattern: string): string | undefined {
  return checkTimeFormat(pattern).problem;
}

const injectionSchema = z
  .object({
    injectRuntimeState: z.boolean(),
    timezone: z
      .string()
      .min(1)
      .max(64)
      .superRefine((value, ctx) => {
        const problem = timeZoneProblem(value);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    timeFormat: z
      .string()
      .min(1)
      .max(64)
      .superRefine((value, ctx) => {
        const problem = timeFormatProblem(value);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    timeInterval: z.number().finite().min(0, { message: "must be >= 0 (hours)" }),
    contextBufferRatio: z.number().min(0).max(1),
    template: z
      .string()
      .max(10_000)
      .refine((t) => t.includes("{runtime_state}"), { message: "must contain {runtime_state}" }),
    injectionSource: z.object({ label: z.string().min(1).max(64), sublabel: z.string().max(64) }).strict(),
    taskToolNames: z.array(z.string().min(1).max(64)).max(32),
    extraFields: z.record(z.string(), z.string().max(2_000)).superRefine((fields, ctx) => {
      const keys = Object.keys(fields);
      if (keys.length > 32) ctx.addIssue({ code: "custom", message: "at most 32 extra fields" });
      for (const key of keys) {
        if (!FIELD_KEY_PATTERN.test(key) || key.length > 64) {
          ctx.addIssue({ code: "custom", path: [key], message: "key must match [A-Za-z][A-Za-z0-9_-]*" });
        } else if ((BUILT_IN_FIELDS as readonly string[]).includes(key)) {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `is a built-in field name (${BUILT_IN_FIELDS.join(", ")})`,
          });
        }
      }
    }),
    emitHintEvent: z.boolean(),
    strategy: z.enum(INJECTION_STRATEGIES, {
      message: `must be one of ${INJECTION_STRATEGIES.map((s) => `"${s}"`).join(", ")}`,
    }),
    timestamps: z.boolean(),
    tasksDetail: z.enum(TASKS_DETAILS, { message: `must be one of ${TASKS_DETAILS.map((d) => `"${d}"`).join(", ")}` }),
  })
  .strict();

const contextSchema = z
  .object({
    contextWindow: z.number().int().positive().max(10_000_000).optional(),
    triggerRatio: z.number().gt(0).max(0.9),
    reserveRatio: z.number().min(0).max(1),
  })
  .strict();

const promptSchema = z
  .object({
    base: z.string().max(100_000).optional(),
    instructions: z.string().max(100_000).optional(),
    memory: z.string().max(200_000).optional(),
  })
  .strict();

/** The most a person may set as a reply's length; a provider's own ceiling (HINTLINE_MAX_REPLY_TOKENS) still applies. */
export const MAX_OUTPUT_TOKENS_SETTING = 1_000_000;

// What a person expects to set for the model's answers: how varied (temperature) and how long at most. Absent: the
// provider's default, and the server's ceiling.
const samplingSchema = z
  .object({
    temperature: z
      .number()
      .finite()
      .min(0, { message: "must be from 0 to 2" })
      .max(2, { message: "must be from 0 to 2" })
      .optional(),
    maxOutputTokens: z
      .number()
      .int({ message: "must be a whole number of tokens" })
      .min(1, { message: "must be at least 1 token" })
      .max(MAX_OUTPUT_TOKENS_SETTING, {
        message: `must be at most ${MAX_OUTPUT_TOKENS_SETTING.toLocaleString("en-US")} tokens`,
      })
      .optional(),
  })
  .strict();

// The longest the tasks and context-length texts can be (counts up to 2^53; a unit test holds them to it).
export const MAX_BUILT_IN_TEXT_CHARS = 200;
/** The longest time-since-last-message text ("104249991 d 23 h since your last reply", with room to spare). */
export const MAX_SINCE_CHARS = 64;

const fieldChars = (key: string, valueChars: number) => 2 * key.length + 5 + valueChars;

/**
 * The longest hint these settings can render: the template with, at every placeholder, every built-in field at
 * its longest and every extra field. `withExtras: false` leaves the extra fields out.
 */
export function worstCaseHintChars(injection: Settings["injection"], { withExtras = true } = {}): number {
  const time = checkTimeFormat(injection.timeFormat).maxChars;
  const fields = [
    fieldChars("current-time", time),
    fieldChars("timezone", escapeValue(injection.timezone).length),
    fieldChars("time-since-last-message", MAX_SINCE_CHARS),
    fieldChars("tasks", MAX_BUILT_IN_TEXT_CHARS + (injection.tasksDetail === "list" ? OPEN_TASKS_MAX_CHARS : 0)),
    fieldChars("context-length", MAX_BUILT_IN_TEXT_CHARS),
  ];
  if (withExtras)
    for (const [key, value] of Object.entries(injection.extraFields))
      fields.push(fieldChars(key, escapeValue(value).length));
  const state = fields.reduce((sum, n) => sum + n, 0) + fields.length - 1;
  return renderedLength(injection.template, state);
}

export const settingsSchema = z
  .object({ injection: injectionSchema, context: contextSchema, prompt: promptSchema, sampling: samplingSchema })
  .strict()
  .superRefine((s, ctx) => {
    const placeholders = s.injection.template.split(RUNTIME_STATE_PLACEHOLDER).length - 1;
    const bare = worstCaseHintChars(s.injection, { withExtras: false });
    if (bare > HINT_MAX_CHARS) {
      ctx.addIssue({
        code: "custom",
        path: ["injection", "template"],
        message: `could render a hint of ${bare} characters (${placeholders} × {runtime_state}); a hint may hold at most ${HINT_MAX_CHARS}`,
      });
    } else {
      const full = worstCaseHintChars(s.injection);
      if (full > HINT_MAX_CHARS) {
        ctx.addIssue({
          code: "custom",
          path: ["injection", "extraFields"],
          message: `could make a hint of ${full} characters with this template (${placeholders} × {runtime_state}); a hint may hold at most ${HINT_MAX_CHARS}`,
        });
      }
    }
    if (s.injection.contextBufferRatio >= s.context.triggerRatio) {
      ctx.addIssue({
        code: "custom",
        path: ["injection", "contextBufferRatio"],
        message: "must be smaller than context.triggerRatio",
      });
    }
    if (s.context.reserveRatio >= s.context.triggerRatio) {
      ctx.addIssue({
        code: "custom",
        path: ["context", "reserveRatio"],
        message: "must be smaller than context.triggerRatio",
      });
    }
  });

export type Settings = z.infer<typeof settingsSchema>;
export type InjectionConfig = Settings["injection"];

export function defaultSettings(timezone = "UTC"): Settings {
  return {
    injection: {
      injectRuntimeState: true,
      timezone,
      timeFormat: DEFAULT_TIME_FORMAT,
      timeInterval: 0.5,
      contextBufferRatio: 0.2,
      template: DEFAULT_TEMPLATE,
      injectionSource: { label: "System", sublabel: "Runtime State" },
      taskToolNames: [...DEFAULT_TASK_TOOL_NAMES],
      extraFields: {},
      emitHintEvent: true,
      strategy: "append",
      timestamps: false,
      tasksDetail: "list",
    },
    context: { triggerRatio: 0.8, reserveRatio: 0.1 },
    prompt: {},
    sampling: {},
  };
}

/**
 * What the model call is sent of the person's sampling settings: their temperature, and their longest reply within
 * the server's ceiling (the smaller of the two; neither: the ceiling, or nothing).
 */
export function samplingOptions(
  settings: Pick<Settings, "sampling">,
  ceiling: number | undefined,
): { maxOutputTokens?: number; temperature?: number } {
  const { temperature, maxOutputTokens: wanted } = settings.sampling;
  const maxOutputTokens =
    wanted !== undefined && ceiling !== undefined ? Math.min(wanted, ceiling) : (wanted ?? ceiling);
  return {
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
  };
}

type Section = Record<string, unknown>;
const isObject = (v: unknown): v is Section => typeof v === "object" && v !== null && !Array.isArray(v);

/** A section without the fields set to null: null clears an optional setting (back to its default). */
const withoutNulls = (section: Section): Section =>
  Object.fromEntries(Object.entries(section).filter(([, value]) => value !== null));

/**
 * Merges a partial settings patch into stored settings, section by section (values inside a section replace; a
 * null value clears the field).
 */
export function mergeSettings(stored: unknown, patch: unknown): Section {
  const base: Section = isObject(stored) ? { ...stored } : {};
  if (!isObject(patch)) return base;
  for (const [key, value] of Object.entries(patch)) {
    const merged = isObject(value)
      ? withoutNulls(isObject(base[key]) ? { ...(base[key] as Section), ...value } : value)
      : value;
    // Defined, not assigned: a key named "__proto__" stays a (rejected) field instead of replacing the prototype.
    Object.defineProperty(base, key, { value: merged, enumerable: true, writable: true, configurable: true });
  }
  return base;
}

export type SettingsResult = { ok: true; settings: Settings } | { ok: false; field: string; message: string };

/** Validates stored (partial) settings on top of the defaults; the first problem names its field. */
export function validateSettings(partial: unknown): SettingsResult {
  const merged = mergeSettings(defaultSettings() as unknown as Section, partial);
  const result = settingsSchema.safeParse(merged);
  if (result.success) return { ok: true, settings: result.data };
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? issue.path.join(".") : "settings";
  return { ok: false, field, message: `${field} ${issueInWords(issue)}` };
}

/** Every problem with the settings, keyed by field path — for showing each error beside its field. */
export function settingsIssues(partial: unknown): Record<string, string> {
  const merged = mergeSettings(defaultSettings() as unknown as Section, partial);
  const result = settingsSchema.safeParse(merged);
  const issues: Record<string, string> = {};
  if (result.success) return issues;
  for (const issue of result.error.issues) {
    const field = issue.path.length ? issue.path.join(".") : "settings";
    issues[field] ??= issueInWords(issue);
  }
  return issues;
}

// Resolved settings by their stored JSON: a turn resolves the same settings several times, and a zod parse of the
// whole tree is not free. The objects are shared, so they are frozen. The prompt texts may hold 400,000 characters,
// in the key and in the value: bounded by bytes too, one cache for the process.
export const RESOLVED_SETTINGS_MAX_BYTES = 8 * 1024 * 1024;
const resolved = sharedBoundedMap<string, Settings>("settings", {
  maxEntries: 256,
  maxBytes: RESOLVED_SETTINGS_MAX_BYTES,
  sizeOf: (key) => 4 * key.length + 4096,
});

/** Settings for use by the engine: stored values over defaults; anything invalid falls back to the defaults. */
export function resolveSettings(stored: unknown): Settings {
  const key = JSON.stringify(stored ?? null);
  const known = resolved.get(key);
  if (known) return known;
  const result = validateSettings(withCanonicalZone(stored));
  const settings = deepFreeze(result.ok ? result.settings : defaultSettings());
  resolved.set(key, settings);
  return settings;
}

/** Stored before zone names had to be canonical: "utc" is read as "UTC" rather than throwing all settings away. */
function withCanonicalZone(stored: unknown): unknown {
  const injection = isObject(stored) && isObject(stored.injection) ? stored.injection : undefined;
  const zone = injection?.timezone;
  const canonical = typeof zone === "string" ? canonicalTimeZone(zone) : undefined;
  if (!injection || !canonical || canonical === zone) return stored;
  return mergeSettings(stored, { injection: { timezone: canonical } });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
