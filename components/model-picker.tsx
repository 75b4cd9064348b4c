"use client";
// The header's model picker: the model badge with a native select over it (keyboard and screen readers get a real
// select, labelled "Model"). It lists GET /api/models (the demo model alone when no provider is configured). A stored
// conversation switches at once (PATCH { model }; the next call uses the new model and the meter follows its window);
// a conversation not stored yet keeps the choice until its first message creates it with that model. The models are
// grouped by where they come from: each connection (Settings → Models & connections), each provider, the demo.
import { useEffect, useId, useState } from "react";
import type { ContextUsage, ModelInfo } from "@/lib/chat-message";
import { apiFetch } from "@/lib/stores/api-client";
import { useConversationsStore } from "@/lib/stores/conversations-store";
import { useModelChoiceStore } from "@/lib/stores/model-choice-store";
import { useUsageStore } from "@/lib/stores/usage-store";
import { ModelBadge } from "./model-badge";

type ModelList = { default: string; models: ModelInfo[] };
let listed: Promise<ModelList> | undefined;
/** GET /api/models, asked once and shared (the settings drawer's model field uses it too). */
export const modelList = () => {
  listed ??= apiFetch<ModelList>("/api/models").catch((error) => {
    listed = undefined;
    throw error;
  });
  return listed;
};

/** The list is asked for again on next use (a connection was added, changed or deleted). */
export const forgetModelList = () => {
  listed = undefined;
};

const groupOf = (m: ModelInfo) => m.connection ?? (m.isDemo ? "demo" : m.provider);

/** The models in groups, each group where its first model is (the default's group first). */
function grouped(models: ModelInfo[]): Array<[string, ModelInfo[]]> {
  const groups = new Map<string, ModelInfo[]>();
  for (const m of models) groups.set(groupOf(m), [...(groups.get(groupOf(m)) ?? []), m]);
  return [...groups];
}

export function ModelPicker({
  conversationId,
  stored,
  model,
}: {
  conversationId: string;
  stored: boolean;
  model: ModelInfo;
}) {
  const id = useId();
  const [models, setModels] = useState<ModelInfo[]>([model]);
  const [current, setCurrent] = useState(model);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Stored once its first message is sent (the list holds it from then on).
  const exists = useConversationsStore((s) => stored || s.conversations.some((c) => c.id === conversationId));
  const pending = useModelChoiceStore((s) => s.pending[conversationId]);
  const choose = useModelChoiceStore((s) => s.choose);
  const receiveUsage = useUsageStore((s) => s.receive);

  useEffect(() => {
    let live = true;
    modelList()
      .then(
        (list) => live && setModels(list.models.some((m) => m.id === model.id) ? list.models : [model, ...list.models]),
      )
      .catch(() => live && setError("The model list could not be loaded."));
    return () => {
      live = false;
    };
  }, [model]);

  // A new page for the same picker (another conversation, or the server's view after a reload) brings its model.
  useEffect(() => setCurrent(model), [model]);

  const shown = !exists && pending ? (models.find((m) => m.id === pending) ?? current) : current;

  const change = async (next: string) => {
    setError(null);
    const info = models.find((m) => m.id === next);
    if (!exists) {
      choose(conversationId, next);
      if (info) setCurrent(info);
      return;
    }
    setSaving(true);
    try {
      const view = await apiFetch<{ model: ModelInfo; contextUsage: ContextUsage | null }>(
        `/api/conversations/${encodeURIComponent(conversationId)}`,
        {
          method: "PATCH",
          body: JSON.stringify({ model: next }),
        },
      );
      setCurrent(view.model);
      if (view.contextUsage) receiveUsage(view.contextUsage);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "The model could not be switched.");
    } finally {
      setSaving(false);
    }
  };

  return (
    <span className="relative inline-flex rounded-full focus-within:ring-2 focus-within:ring-accent">
      <ModelBadge model={shown} />
      <select
        id={id}
        aria-label="Model"
        data-testid="model-picker"
        value={shown.id}
        disabled={saving}
        title={error ?? `Model: ${shown.id} (choose another for this conversation)`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => void change(event.target.value)}
        className="absolute inset-0 cursor-pointer appearance-none opacity-0"
      >
        {grouped(models).map(([group, members]) => (
          <optgroup key={group} label={group === "demo" ? "Demo (offline)" : group}>
            {members.map((m) => (
              <option key={m.id} value={m.id} data-testid="model-option">
                {m.isDemo ? `${m.id} (demo)` : m.id} · {m.contextWindow.toLocaleString()} tokens
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      {error && (
        <span
          id={`${id}-error`}
          role="alert"
          data-testid="model-picker-error"
          className="absolute top-full right-0 z-20 mt-1 w-64 rounded-lg border border-border bg-elevated px-2 py-1 text-xs text-danger shadow"
        >
          {error}
        </span>
      )}
    </span>
  );
}
