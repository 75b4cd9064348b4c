// Pure: between the settings object and the drawer's text inputs. An emptied optional field is sent as null, which
// clears it (the default again).
import type { Settings } from "@/lib/agent/settings";

export type SettingsDraft = {
  injectRuntimeState: boolean;
  emitHintEvent: boolean;
  strategy: Settings["injection"]["strategy"];
  timestamps: boolean;
  tasksDetail: Settings["injection"]["tasksDetail"];
  timezone: string;
  timeFormat: string;
  timeInterval: string;
  contextBufferRatio: string;
  template: string;
  sourceLabel: string;
  sourceSublabel: string;
  extraFields: Array<{ key: string; value: string }>;
  contextWindow: string;
  triggerRatio: string;
  reserveRatio: string;
  base: string;
  instructions: string;
  memory: string;
  temperature: string;
  maxOutputTokens: string;
};

export function toDraft(s: Settings): SettingsDraft {
  return {
    injectRuntimeState: s.injection.injectRuntimeState,
    emitHintEvent: s.injection.emitHintEvent,
    strategy: s.injection.strategy,
    timestamps: s.injection.timestamps,
    tasksDetail: s.injection.tasksDetail,
    timezone: s.injection.timezone,
    timeFormat: s.injection.timeFormat,
    timeInterval: String(s.injection.timeInterval),
    contextBufferRatio: String(s.injection.contextBufferRatio),
    template: s.injection.template,
    sourceLabel: s.injection.injectionSource.label,
    sourceSublabel: s.injection.injectionSource.sublabel,
    extraFields: Object.entries(s.injection.extraFields).map(([key, value]) => ({ key, value })),
    contextWindow: s.context.contextWindow ? String(s.context.contextWindow) : "",
    triggerRatio: String(s.context.triggerRatio),
    reserveRatio: String(s.context.reserveRatio),
    base: s.prompt.base ?? "",
    instructions: s.prompt.instructions ?? "",
    memory: s.prompt.memory ?? "",
    temperature: s.sampling.temperature === undefined ? "" : String(s.sampling.temperature),
    maxOutputTokens: s.sampling.maxOutputTokens === undefined ? "" : String(s.sampling.maxOutputTokens),
  };
}

/** A number field: a number when it reads as one, else the raw text (so validation names the field). */
const num = (text: string): number | string =>
  text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text;
/** An optional field: empty clears it (null), else its value. */
const optional = <T>(text: string, value: (text: string) => T): T | null => (text.trim() ? value(text) : null);

export function fromDraft(d: SettingsDraft) {
  return {
    injection: {
      injectRuntimeState: d.injectRuntimeState,
      emitHintEvent: d.emitHintEvent,
      strategy: d.strategy,
      timestamps: d.timestamps,
      tasksDetail: d.tasksDetail,
      timezone: d.timezone.trim(),
      timeFormat: d.timeFormat,
      timeInterval: num(d.timeInterval),
      contextBufferRatio: num(d.contextBufferRatio),
      template: d.template,
      injectionSource: { label: d.sourceLabel, sublabel: d.sourceSublabel },
      extraFields: Object.fromEntries(
        d.extraFields.filter((f) => f.key.trim() || f.value).map((f) => [f.key.trim(), f.value]),
      ),
    },
    context: {
      contextWindow: optional(d.contextWindow, num),
      triggerRatio: num(d.triggerRatio),
      reserveRatio: num(d.reserveRatio),
    },
    prompt: {
      base: optional(d.base, String),
      instructions: optional(d.instructions, String),
      memory: optional(d.memory, String),
    },
    sampling: {
      temperature: optional(d.temperature, num),
      maxOutputTokens: optional(d.maxOutputTokens, num),
    },
  };
}
