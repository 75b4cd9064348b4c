// Per-conversation settings: the injection rules (spec/injection.md), the context limits and the prompt parts,
// with their defaults and validation. Stored settings are partial; `resolveSettings` fills in the defaults.
import { format } from "date-fns";
import { z } from "zod";

export const DEFAULT_TEMPLATE =
  "<system-reminder>Treat the following as the ground truth at this point of the conversation. Anything stated earlier is outdated, and a later reminder, if any, supersedes this one:\n{runtime_state}\n</system-reminder>";

export const DEFAULT_TIME_FORMAT = "yyyy-MM-dd'T'HH:mm:ss";
export const DEFAULT_TASK_TOOL_NAMES = ["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"];
export const FIELD_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;

// Building an Intl.DateTimeFormat costs about half a millisecond, and settings are checked several times a turn.
const zoneValidity = new Map<string, boolean>();

export function isValidTimeZone(zone: string): boolean {
  const known = zoneValidity.get(zone);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    valid = true;
  } catch {
    valid = false;
  }
  // Bounded: zone strings come from requests.
  if (zoneValidity.size < 1000) zoneValidity.set(zone, valid);
  return valid;
}

/** The date-fns pattern with its quoted literals removed. */
function patternTokens(pattern: string): string {
  return pattern.replace(/'[^']*'/g, "");
}

export function timeFormatProblem(pattern: string): string | undefined {
  const tokens = patternTokens(pattern);
  if (!/y/.test(tokens) || !/M/.test(tokens) || !/d/.test(tokens)) {
    return "must contain the year (y), month (M) and day (d) so a recorded time can be read back";
  }
  try {
    format(new Date(0), pattern);
  } catch (error) {
    return `is not a valid date-fns format: ${(error as Error).message}`;
  }
  return undefined;
}

const injectionSchema = z
  .object({
    injectRuntimeState: z.boolean(),
    timezone: z.string().min(1).max(64).refine(isValidTimeZone, { message: "is not a known IANA timezone" }),
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
    extraFields: z
      .record(z.string(), z.string().max(2_000))
      .superRefine((fields, ctx) => {
        const keys = Object.keys(fields);
        if (keys.length > 32) ctx.addIssue({ code: "custom", message: "at most 32 extra fields" });
        for (const key of keys) {
          if (!FIELD_KEY_PATTERN.test(key) || key.length > 64) {
            ctx.addIssue({ code: "custom", path: [key], message: "key must match [A-Za-z][A-Za-z0-9_-]*" });
          }
        }
      }),
    emitHintEvent: z.boolean(),
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

export const settingsSchema = z
  .object({ injection: injectionSchema, context: contextSchema, prompt: promptSchema })
  .strict()
  .superRefine((s, ctx) => {
    if (s.injection.contextBufferRatio >= s.context.triggerRatio) {
      ctx.addIssue({
        code: "custom",
        path: ["injection", "contextBufferRatio"],
        message: "must be smaller than context.triggerRatio",
      });
    }
    if (s.context.reserveRatio >= s.context.triggerRatio) {
      ctx.addIssue({ code: "custom", path: ["context", "reserveRatio"], message: "must be smaller than context.triggerRatio" });
    }
  });

export type Settings = z.infer<typeof settingsSchema>;
export type InjectionConfig = Settings["injection"];
export type ContextConfig = Settings["context"];

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
    },
    context: { triggerRatio: 0.8, reserveRatio: 0.1 },
    prompt: {},
  };
}

type Section = Record<string, unknown>;
const isObject = (v: unknown): v is Section => typeof v === "object" && v !== null && !Array.isArray(v);

/** Merges a partial settings patch into stored settings, section by section (values inside a section replace). */
export function mergeSettings(stored: unknown, patch: unknown): Section {
  const base: Section = isObject(stored) ? { ...stored } : {};
  if (!isObject(patch)) return base;
  for (const [key, value] of Object.entries(patch)) {
    const merged = isObject(value) && isObject(base[key]) ? { ...(base[key] as Section), ...value } : value;
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
  const message = issue.code === "unrecognized_keys" ? `unknown field(s) ${issue.keys.join(", ")}` : issue.message;
  return { ok: false, field, message: `${field} ${message}` };
}

/** Every problem with the settings, keyed by field path — for showing each error beside its field. */
export function settingsIssues(partial: unknown): Record<string, string> {
  const merged = mergeSettings(defaultSettings() as unknown as Section, partial);
  const result = settingsSchema.safeParse(merged);
  const issues: Record<string, string> = {};
  if (result.success) return issues;
  for (const issue of result.error.issues) {
    const field = issue.path.length ? issue.path.join(".") : "settings";
    const message = issue.code === "unrecognized_keys" ? `unknown field(s) ${issue.keys.join(", ")}` : issue.message;
    issues[field] ??= message;
  }
  return issues;
}

// Resolved settings by their stored JSON: a turn resolves the same settings several times, and a zod parse of the
// whole tree is not free. The objects are shared, so they are frozen.
const resolved = new Map<string, Settings>();

/** Settings for use by the engine: stored values over defaults; anything invalid falls back to the defaults. */
export function resolveSettings(stored: unknown): Settings {
  const key = JSON.stringify(stored ?? null);
  const known = resolved.get(key);
  if (known) return known;
  const result = validateSettings(stored);
  const settings = deepFreeze(result.ok ? result.settings : defaultSettings());
  if (resolved.size >= 256) resolved.delete(resolved.keys().next().value as string);
  resolved.set(key, settings);
  return settings;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
