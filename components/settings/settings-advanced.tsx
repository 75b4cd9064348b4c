"use client";
// The settings a person rarely needs, behind "Advanced" in the drawer: how hints reach the model (the runtime-state
// note, its template and time format), the context limits and the base prompt and memory.
import type { SettingsDraft } from "./settings-form";
import { controlProps, type DraftProps, Field, inputClass, TextSetting } from "./settings-fields";

const STRATEGY_HINT =
  "append: each change is told where it happens; replace: one up-to-date status at the end of each call; auto: whichever costs fewer tokens";

/** The draft fields under "Advanced": an error on any of them opens it. */
export const ADVANCED_PATHS = ["injection.", "context.", "prompt.base", "prompt.memory"];

function Check({
  draft,
  set,
  field,
  path,
  label,
}: DraftProps<SettingsDraft> & {
  field: "injectRuntimeState" | "emitHintEvent" | "timestamps";
  path: string;
  label: string;
}) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        data-testid={`setting-${path}`}
        checked={draft[field]}
        onChange={(e) => set(field, e.target.checked)}
      />
      {label}
    </label>
  );
}

function ExtraFields({ draft, set, errors }: DraftProps<SettingsDraft>) {
  const change = (i: number, part: "key" | "value", value: string) =>
    set(
      "extraFields",
      draft.extraFields.map((x, j) => (j === i ? { ...x, [part]: value } : x)),
    );
  return (
    <Field
      label="Extra fields"
      path="injection.extraFields"
      errors={errors}
      hint="Added to every hint; never trigger one"
      group
    >
      <div className="space-y-1.5">
        {draft.extraFields.map((f, i) => (
          <div key={i} className="flex gap-1.5">
            <input
              aria-label={`Field ${i + 1} name`}
              data-testid="extra-field-key"
              className={`${inputClass} w-2/5`}
              value={f.key}
              onChange={(e) => change(i, "key", e.target.value)}
            />
            <input
              aria-label={`Field ${i + 1} value`}
              data-testid="extra-field-value"
              className={inputClass}
              value={f.value}
              onChange={(e) => change(i, "value", e.target.value)}
            />
            <button
              type="button"
              aria-label={`Remove field ${i + 1}`}
              className="px-2 text-muted"
              onClick={() =>
                set(
                  "extraFields",
                  draft.extraFields.filter((_, j) => j !== i),
                )
              }
            >
              ×
            </button>
          </div>
        ))}
        {Object.entries(errors)
          .filter(([k]) => k.startsWith("injection.extraFields."))
          .map(([k, m]) => (
            <span key={k} role="alert" className="block text-xs text-danger">
              {k.slice("injection.extraFields.".length)}: {m}
            </span>
          ))}
        <button
          type="button"
          data-testid="add-extra-field"
          className="text-xs text-accent"
          onClick={() => set("extraFields", [...draft.extraFields, { key: "", value: "" }])}
        >
          + Add field
        </button>
      </div>
    </Field>
  );
}

function HintSettings(props: DraftProps<SettingsDraft>) {
  const { draft, set, errors } = props;
  return (
    <section className="space-y-3">
      <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">Hints</h3>
      <Check
        {...props}
        field="injectRuntimeState"
        path="injection.injectRuntimeState"
        label="Inject runtime state (time, tasks, context) as hints"
      />
      <Check
        {...props}
        field="emitHintEvent"
        path="injection.emitHintEvent"
        label="Show hints live while the reply streams"
      />
      <Field label="Strategy" path="injection.strategy" errors={errors} hint={STRATEGY_HINT}>
        <select
          {...controlProps("injection.strategy", errors, STRATEGY_HINT)}
          data-testid="setting-injection.strategy"
          className={inputClass}
          value={draft.strategy}
          onChange={(e) => set("strategy", e.target.value as SettingsDraft["strategy"])}
        >
          <option value="append">append</option>
          <option value="replace">replace</option>
          <option value="auto">auto</option>
        </select>
      </Field>
      <Check
        {...props}
        field="timestamps"
        path="injection.timestamps"
        label="Timestamps on your messages and tool results (model input only)"
      />
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          data-testid="setting-injection.tasksDetail"
          checked={draft.tasksDetail === "list"}
          onChange={(e) => set("tasksDetail", e.target.checked ? "list" : "counts")}
        />
        Task hints list the open tasks (not only how many)
      </label>
      <TextSetting
        {...props}
        field="timezone"
        path="injection.timezone"
        label="Timezone"
        hint="An IANA name, e.g. Europe/Berlin"
      />
      <TextSetting
        {...props}
        field="timeFormat"
        path="injection.timeFormat"
        label="Time format"
        hint="date-fns tokens; must contain year, month and day"
      />
      <TextSetting
        {...props}
        field="timeInterval"
        path="injection.timeInterval"
        label="Time interval (hours)"
        hint="Re-tell the time after this long"
        inputMode="decimal"
      />
      <TextSetting
        {...props}
        field="contextBufferRatio"
        path="injection.contextBufferRatio"
        label="Context buffer ratio"
        hint="Warn this far below the compression trigger"
        inputMode="decimal"
      />
      <TextSetting
        {...props}
        field="template"
        path="injection.template"
        label="Template"
        hint="Must contain {runtime_state}"
        area
      />
      <div className="grid grid-cols-2 gap-2">
        <TextSetting {...props} field="sourceLabel" path="injection.injectionSource.label" label="Source label" />
        <TextSetting
          {...props}
          field="sourceSublabel"
          path="injection.injectionSource.sublabel"
          label="Source sublabel"
        />
      </div>
      <ExtraFields {...props} />
    </section>
  );
}

export function AdvancedSettings(props: DraftProps<SettingsDraft>) {
  return (
    <div data-testid="settings-advanced" className="space-y-6">
      <HintSettings {...props} />
      <section className="space-y-3">
        <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">Context</h3>
        <TextSetting
          {...props}
          field="contextWindow"
          path="context.contextWindow"
          label="Context window (tokens)"
          hint="Empty: the model's known window"
          inputMode="numeric"
        />
        <div className="grid grid-cols-2 gap-2">
          <TextSetting
            {...props}
            field="triggerRatio"
            path="context.triggerRatio"
            label="Compression trigger ratio"
            inputMode="decimal"
          />
          <TextSetting
            {...props}
            field="reserveRatio"
            path="context.reserveRatio"
            label="Reserve ratio"
            inputMode="decimal"
          />
        </div>
      </section>
      <section className="space-y-3">
        <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">Prompt</h3>
        <TextSetting
          {...props}
          field="base"
          path="prompt.base"
          label="Base prompt"
          hint="Empty: Hintline's default"
          area
        />
        <TextSetting
          {...props}
          field="memory"
          path="prompt.memory"
          label="Memory"
          hint="Notes, like a MEMORY.md"
          area
        />
      </section>
    </div>
  );
}
