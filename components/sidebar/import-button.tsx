"use client";
// The sidebar's Import: a JSON file (a Hintline export, of one conversation or several) sent to POST
// /api/conversations/import into the workspace the person is in; the copy (the first one) opens there.
// The server's refusal is shown in words (the file is not JSON, a message too long, …).
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { useConversationsStore } from "@/lib/stores/conversations-store";
import { useWorkspacesStore } from "@/lib/stores/workspaces-store";
import { UploadIcon } from "../ui/icons";
import { warnFailure } from "@/lib/client-log";
import { browserTimeZone } from "@/lib/stores/browser-zone";

export function ImportButton({ onNavigate }: { onNavigate?: () => void }) {
  const router = useRouter();
  const refresh = useConversationsStore((s) => s.refresh);
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const importFile = async (file: File) => {
    setBusy(true);
    setError(null);
    try {
      // The copy lives in the chosen workspace and in this browser's zone, as a new conversation does (not UTC).
      const query = new URLSearchParams({ workspaceId: useWorkspacesStore.getState().currentId });
      const zone = browserTimeZone();
      if (zone) query.set("timezone", zone);
      const url = `/api/conversations/import?${query}`;
      // One conversation's export answers its id; a bundle of several (the list's "Export N") their ids: the first opens.
      const result = await apiFetch<{ id?: string; ids?: string[] }>(url, { method: "POST", body: await file.text() });
      await refresh().catch(warnFailure("reloading the conversation list failed"));
      const id = result.id ?? result.ids?.[0];
      onNavigate?.();
      if (id) router.push(`/c/${id}`);
    } catch (e) {
      setError(`Could not import ${file.name}: ${failureText(e)}`);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        data-testid="import-file"
        aria-label="Conversation file to import (JSON)"
        tabIndex={-1}
        className="hidden"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void importFile(file);
        }}
      />
      <button
        type="button"
        data-testid="import-button"
        title="Import a conversation from a JSON export"
        disabled={busy}
        onClick={() => input.current?.click()}
        className="flex items-center gap-1.5 rounded-lg border border-border bg-elevated px-3 py-2 text-sm hover:border-accent/50 disabled:opacity-60"
      >
        <UploadIcon /> {busy ? "Importing…" : "Import"}
      </button>
      {error && (
        <p
          role="alert"
          data-testid="import-error"
          className="basis-full rounded-md bg-danger-bg px-2 py-1 text-xs text-danger"
        >
          {error}
        </p>
      )}
    </>
  );
}
