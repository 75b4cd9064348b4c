"use client";
// The conversation's settings: first what a person sets (instructions, model, temperature, the longest reply), then,
// behind "Advanced", the injection rules, context limits and base prompt. Every field is validated as you type with
// the same rules the server applies, and a server rejection is shown beside the field it names.
import { useRouter } from "next/navigation";
import { useEffect, useId, useMemo, useState } from "react";
import { type Settings, settingsIssues } from "@/lib/agent/settings";
import type { ContextUsage, ModelInfo } from "@/lib/chat-message";
import { ApiRequestError, apiFetch } from "@/lib/stores/api-client";
import { useUsageStore } from "@/lib/stores/usage-store";
import { modelList } from "../model-picker";
import { Drawer, DrawerTitle } from "../ui/drawer";
import { ADVANCED_PATHS, AdvancedSettings } from "./settings-advanced";
import { controlProps, Field, inputClass, TextSetting } from "./settings-fields";
import { fromDraft, type SettingsDraft, toDraft } from "./settings-form";

const TEMPERATURE_HINT = "0 keeps answers focused, 2 makes them most varied; empty: the model's default";
const LENGTH_HINT = "In tokens (about ¾ of a word each); empty: the server's limit";

function ModelField({ model, onChange }: { model: ModelInfo; onChange: (id: string) => void }) {
  const [models, setModels] = useState<ModelInfo[]>([model]);
  const [chosen, setChosen] = useState(model.id);
  useEffect(() => {
    let live = true;
    modelList()
      .then(
        (list) => live && setModels(list.models.some((m) => m.id === model.id) ? list.models : [model, ...list.models]),
      )
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [model]);
  return (
    <Field label="Model" path="model" errors={{}}>
      <select
        {...controlProps("model", {})}
        data-testid="setting-model"
        className={inputClass}
        value={chosen}
        onChange={(e) => {
          setChosen(e.target.value);
          onChange(e.target.value);
        }}
      >
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.isDemo ? `${m.id} (demo, offline)` : m.id}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function SettingsDrawer({
  conversationId,
  settings,
  model,
  onClose,
  onSaved,
}: {
  conversationId: string;
  settings: Settings;
  model: ModelInfo;
  onClose: () => void;
  onSaved: (settings: Settings) => void;
}) {
  const router = useRouter();
  const advancedId = useId();
  const [draft, setDraft] = useState<SettingsDraft>(() => toDraft(settings));
  const [modelId, setModelId] = useState(model.id);
  const [serverError, setServerError] = useState<{ field?: string; message: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const local = useMemo(() => settingsIssues(fromDraft(draft)), [draft]);
  const errors = {
    ...local,
    ...(serverError?.field ? { [serverError.field.replace(/^settings\./, "")]: serverError.message } : {}),
  };
  // A problem in a field under "Advanced" opens it, so that the person sees what stops Save.
  const advancedError = Object.keys(errors).some((path) => ADVANCED_PATHS.some((prefix) => path.startsWith(prefix)));
  const showAdvanced = advancedOpen || advancedError;
  const set = <K extends keyof SettingsDraft>(key: K, value: SettingsDraft[K]) => {
    setServerError(null);
    setDraft((d) => ({ ...d, [key]: value }));
  };
  const props = { draft, set, errors };

  const save = async () => {
    setSaving(true);
    try {
      const switched = modelId !== model.id;
      const view = await apiFetch<{ settings: Settings; contextUsage: ContextUsage | null }>(
        `/api/conversations/${conversationId}`,
        {
          method: "PATCH",
          body: JSON.stringify({ settings: fromDraft(draft), ...(switched ? { model: modelId } : {}) }),
        },
      );
      if (view.contextUsage) useUsageStore.getState().receive(view.contextUsage);
      // The header's picker and the meter follow the conversation's model from the page.
      if (switched) router.refresh();
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
        <section data-testid="settings-main" className="space-y-3">
          <TextSetting
            {...props}
            field="instructions"
            path="prompt.instructions"
            label="Instructions"
            hint="What the agent should always keep to in this conversation"
            area
          />
          <ModelField model={model} onChange={setModelId} />
          <div className="grid grid-cols-2 gap-2">
            <TextSetting
              {...props}
              field="temperature"
              path="sampling.temperature"
              label="Temperature"
              hint={TEMPERATURE_HINT}
              inputMode="decimal"
            />
            <TextSetting
              {...props}
              field="maxOutputTokens"
              path="sampling.maxOutputTokens"
              label="Longest reply"
              hint={LENGTH_HINT}
              inputMode="numeric"
            />
          </div>
        </section>
        <section>
          <button
            type="button"
            data-testid="settings-advanced-toggle"
            aria-expanded={showAdvanced}
            aria-controls={advancedId}
            onClick={() => setAdvancedOpen(!showAdvanced)}
            className="text-sm font-medium text-accent"
          >
            {showAdvanced ? "▾" : "▸"} Advanced: hints, time format, context limits, base prompt
          </button>
          <div id={advancedId} className="mt-4">
            {showAdvanced && <AdvancedSettings {...props} />}
          </div>
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
