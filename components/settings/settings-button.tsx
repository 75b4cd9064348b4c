"use client";
// Opens the settings drawer with the conversation's current settings (loaded fresh from the server). The drawer's
// code (and the settings schema it validates with, zod included) is fetched on the first open, with the settings.
import { Suspense, useState } from "react";
import type { Settings } from "@/lib/agent/settings";
import type { ModelInfo } from "@/lib/chat-message";
import { ApiRequestError, apiFetch } from "@/lib/stores/api-client";
import { onDemand } from "../ui/on-demand";
import { SlidersIcon } from "../ui/icons";

const drawer = onDemand(() => import("./settings-drawer").then((m) => m.SettingsDrawer));

export function SettingsButton({ conversationId }: { conversationId: string }) {
  const [opened, setOpened] = useState<{ settings: Settings; model: ModelInfo } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const open = async () => {
    try {
      const code = drawer.load().catch(() => {
        throw new Error("The settings could not be loaded: Hintline did not answer. Try again in a moment.");
      });
      const [view] = await Promise.all([
        apiFetch<{ settings: Settings; model: ModelInfo }>(`/api/conversations/${conversationId}`),
        code,
      ]);
      setOpened({ settings: view.settings, model: view.model });
    } catch (error) {
      const missing = error instanceof ApiRequestError && error.status === 404;
      setNotice(
        missing ? "Settings are available once the conversation has its first message." : (error as Error).message,
      );
      setTimeout(() => setNotice(null), 3500);
    }
  };
  return (
    <>
      <button
        type="button"
        data-testid="open-settings"
        onClick={() => void open()}
        title="Conversation settings"
        className="shrink-0 rounded-lg p-2 text-muted hover:bg-chip hover:text-fg"
      >
        <SlidersIcon />
        <span className="sr-only">Conversation settings</span>
      </button>
      {notice && (
        <div
          role="status"
          className="fixed top-16 right-4 z-50 max-w-xs rounded-lg border border-border bg-elevated px-3 py-2 text-sm shadow-lg"
        >
          {notice}
        </div>
      )}
      {opened && (
        <Suspense fallback={null}>
          <drawer.Component
            conversationId={conversationId}
            settings={opened.settings}
            model={opened.model}
            onClose={() => setOpened(null)}
            onSaved={() => {}}
          />
        </Suspense>
      )}
    </>
  );
}
