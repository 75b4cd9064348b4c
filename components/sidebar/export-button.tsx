"use client";
// Saving conversations as JSON files: one (GET /api/conversations/:id/export, named after its title) from its row's
// menu, or several at once (POST /api/conversations/export, one bundle) from the list's selection. A refusal (too
// large to import again, gone) is said in words.
import { useState } from "react";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { exportFileName } from "./search-text";

/** Offers `body` as a download named `name`. */
export function saveJson(body: unknown, name: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(body, null, 2)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One conversation's export: `save` downloads it; `error` says why it could not. */
export function useExport(id: string, title: string): { save: () => Promise<void>; error: string | null } {
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setError(null);
    try {
      saveJson(await apiFetch<unknown>(`/api/conversations/${id}/export`), exportFileName(title, new Date()));
    } catch (e) {
      setError(`Export failed: ${failureText(e)}`);
    }
  };
  return { save, error };
}

/** Several conversations in one file; throws the server's refusal. */
export async function exportSeveral(ids: readonly string[]): Promise<void> {
  const body = await apiFetch<unknown>("/api/conversations/export", { method: "POST", body: JSON.stringify({ ids }) });
  saveJson(body, exportFileName(`${ids.length} conversations`, new Date()));
}

export function ExportError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p
      role="alert"
      data-testid="export-error"
      className="absolute top-full right-0 z-10 w-56 rounded-md bg-danger-bg px-2 py-1 text-xs text-danger"
    >
      {error}
    </p>
  );
}
