"use client";
// The conversation's settings: injection rules, context limits and prompt parts. Every field is validated as you
// type with the same rules the server applies, and a server rejection is shown beside the field it names.
import { type ReactNode, useMemo, useState } from "react";
import { type Settings, settingsIssues } from "@/lib/agent/settings";
import { ApiRequestError, apiFetch } from "@/lib/stores/api-client";
import { Drawer, DrawerTitle } from "../ui/drawer";
import { fromDraft, type SettingsDraft, toDraft } from "./settings-form";

type FieldProps = { label: string; path: string; errors: Record<string, string>; hint?: string; children: ReactNode };

/** The id of a field's control (its label points at it) and of its note (the control is described by it). */
const fieldId = (path: string) => `setting-${path.replace(/\./g, "-")}`;
const noteId = (path: string) => `${fieldId(path)}-note`;

function Field({ label, path, errors, hint, children, group = false }: FieldProps & { group?: boolean }) {
  const error = errors[path];
  const note = error ? (
    <span role="alert" id={noteId(path)} data-testid={`error-${path}`} className="text-xs text-danger">
      {error}
    </span>
  ) : hint ? (
    <span id={noteId(path)} className="text-xs text-muted">
      {hint}
    </span>
  ) : null;
  // A field of several controls is a fieldset named by its legend; one control is named by its label.
  if (group) {
    return (
      <fieldset className="flex flex-col gap-1" data-field={path}>
        <legend className="mb-1 text-xs font-medium text-fg/80">{label}</legend>
        {children}
        {note}
      </fieldset>
    );
  }
  return (
    <div className="flex flex-col gap-1" data-field={path}>
      <label htmlFor={fieldId(path)} className="text-xs font-medium text-fg/80">
        {label}
      </label>
      {children}
      {note}
    </div>
  );
}

/** What a control needs to be named and described by its Field. */
const controlProps = (path: string, errors: Record<string, string>, hint?: string) => ({
  id: fieldId(path),
  "aria-describedby": errors[path] || hint ? noteId(path) : undefined,
  "aria-invalid": errors[path] ? true : undefined,
});

const STRATEGY_HINT =
  "append: hints stay; replace: one status at the end of each call, removed before the next; auto: the cheaper by the cost model";

const input = "w-full rounded-lg border border-border bg-bg px-2.5 py-1.5 text-sm outline-none focus:border-accent/60";

export function SettingsDrawer({
  conversationId,
  settings,
  onClose,
  onSaved,
}: {
  conversationId: string;
  settings: Settings;
  onClose: () => void;
  onSaved: (settings: Settings) => void;
}) {
  const [draft, setDraft] = useState<SettingsDraft>(() => toDraft(settings));
  const [serverError, setServerError] = useState<{ field?: string; message: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const local = useMemo(() => settingsIssues(fromDraft(draft)), [draft]);
  const errors = {
    ...local,
    ...(serverError?.field ? { [serverError.field.replace(/^settings\./, "")]: serverError.message } : {}),
  };
  const set = <K extends keyof SettingsDraft>(key: K, value: SettingsDraft[K]) => {
    setServerError(null);
    setDraft((d) => ({ ...d, [key]: value }));
  };
  const text = (key: keyof SettingsDraft, path: string, label: string, hint?: string, area = false) => (
    <Field label={label} path={path} errors={errors} hint={hint}>
      {area ? (
        <textarea
          {...controlProps(path, errors, hint)}
          data-testid={`setting-${path}`}
          rows={4}
          className={`${input} font-mono text-xs`}
          value={draft[key] as string}
          onChange={(e) => set(key, e.target.value as never)}
        />
      ) : (
        <input
          {...controlProps(path, errors, hint)}
          data-testid={`setting-${path}`}
          className={input}
          value={draft[key] as string}
          onChange={(e) => set(key, e.target.value as never)}
        />
      )}
    </Field>
  );

  const save = async () => {
    setSaving(true);
    try {
      const view = await apiFetch<{ settings: Settings }>(`/api/conversations/${conversationId}`, {
        method: "PATCH",
        body: JSON.stringify({ settings: fromDraft(draft) }),
      });
      onSaved(view.settings);
      onClose();
    } catch (error) {
      const e = error as ApiRequestError & { field?: string };
      setServerError({ message: e.message, field: e instanceof ApiRequestError ? e.field : undefined });
    } finally {
      setSaving(false);
    }
  };

  const hasErrors = Object.keys(local).length > 0;
  return (
    <Drawer
      open
      onOpenChange={(open) => !open && onClose()}
      title="Conversation settings"
      testId="settings-drawer"
      className="w-full max-w-md bg-elevated"
    >
      <header className="flex items-center justify-between border-b border-border px-5 py-3">
        <DrawerTitle className="font-semibold">Conversation settings</DrawerTitle>
        <button type="button" onClick={onClose} className="rounded-md px-2 py-1 text-sm text-muted hover:bg-chip">
          Close
        </button>
      </header>
      <div className="flex-1 space-y-6 overflow-y-auto px-5 py-4">
        <section className="space-y-3">
          <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">Injection</h3>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              data-testid="setting-injection.injectRuntimeState"
              checked={draft.injectRuntimeState}
              onChange={(e) => set("injectRuntimeState", e.target.checked)}
            />
            Inject runtime state (time, tasks, context) as hints
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              data-testid="setting-injection.emitHintEvent"
              checked={draft.emitHintEvent}
              onChange={(e) => set("emitHintEvent", e.target.checked)}
            />
            Show hints live while the reply streams
          </label>
          <Field label="Strategy" path="injection.strategy" errors={errors} hint={STRATEGY_HINT}>
            <select
              {...controlProps("injection.strategy", errors, STRATEGY_HINT)}
              data-testid="setting-injection.strategy"
              className={input}
              value={draft.strategy}
              onChange={(e) => set("strategy", e.target.value as SettingsDraft["strategy"])}
            >
              <option value="append">append</option>
              <option value="replace">replace</option>
              <option value="auto">auto</option>
            </select>
          </Field>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              data-testid="setting-injection.timestamps"
              checked={draft.timestamps}
              onChange={(e) => set("timestamps", e.target.checked)}
            />
            Timestamps on your messages and tool results (model input only)
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              data-testid="setting-injection.tasksDetail"
              checked={draft.tasksDetail === "list"}
              onChange={(e) => set("tasksDetail", e.target.checked ? "list" : "counts")}
            />
            Task hints list the open tasks (not only how many)
          </label>
          {text("timezone", "injection.timezone", "Timezone", "An IANA name, e.g. Europe/Berlin")}
          {text(
            "timeFormat",
            "injection.timeFormat",
            "Time format",
            "date-fns tokens; must contain year, month and day",
          )}
          {text("timeInterval", "injection.timeInterval", "Time interval (hours)", "Re-tell the time after this long")}
          {text(
            "contextBufferRatio",
            "injection.contextBufferRatio",
            "Context buffer ratio",
            "Warn this far below the compression trigger",
          )}
          {text("template", "injection.template", "Template", "Must contain {runtime_state}", true)}
          <div className="grid grid-cols-2 gap-2">
            {text("sourceLabel", "injection.injectionSource.label", "Source label")}
            {text("sourceSublabel", "injection.injectionSource.sublabel", "Source sublabel")}
          </div>
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
                    className={`${input} w-2/5`}
                    value={f.key}
                    onChange={(e) =>
                      set(
                        "extraFields",
                        draft.extraFields.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)),
                      )
                    }
                  />
                  <input
                    aria-label={`Field ${i + 1} value`}
                    data-testid="extra-field-value"
                    className={input}
                    value={f.value}
                    onChange={(e) =>
                      set(
                        "extraFields",
                        draft.extraFields.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)),
                      )
                    }
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
        </section>
        <section className="space-y-3">
          <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">Context</h3>
          {text("contextWindow", "context.contextWindow", "Context window (tokens)", "Empty: the model's known window")}
          <div className="grid grid-cols-2 gap-2">
            {text("triggerRatio", "context.triggerRatio", "Compression trigger ratio")}
            {text("reserveRatio", "context.reserveRatio", "Reserve ratio")}
          </div>
        </section>
        <section className="space-y-3">
          <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">Prompt</h3>
          {text("base", "prompt.base", "Base prompt", "Empty: Hintline's default", true)}
          {text("instructions", "prompt.instructions", "Instructions", "Standing rules, like an AGENTS.md", true)}
          {text("memory", "prompt.memory", "Memory", "Notes, like a MEMORY.md", true)}
        </section>
        {serverError && !serverError.field && (
          <p role="alert" className="text-sm text-danger">
            {serverError.message}
          </p>
        )}
      </div>
      <footer className="flex justify-end gap-2 border-t border-border px-5 py-3">
        <button type="button" onClick={onClose} className="rounded-lg border border-border px-3 py-1.5 text-sm">
          Cancel
        </button>
        <button
          type="button"
          data-testid="settings-save"
          disabled={saving || hasErrors}
          onClick={() => void save()}
          className="rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-accent-fg disabled:opacity-40"
        >
          {saving ? "Saving…" : "Save"}
        </button>
      </footer>
    </Drawer>
  );
}
