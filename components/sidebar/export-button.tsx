"use client";
// A conversation row's Export: fetches GET /api/conversations/:id/export and saves it as a JSON file named after the
// title. A refusal (too large to import again, gone) is said in words under the row.
import { useState } from "react";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { exportFileName } from "./search-text";

const DownloadIcon = () => (
  <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d="M12 4v11M7 10l5 5 5-5M5 19h14" />
  </svg>
);

export function ExportButton({ id, title }: { id: string; title: string }) {
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setError(null);
    try {
      const body = await apiFetch<unknown>(`/api/conversations/${id}/export`);
      const url = URL.createObjectURL(new Blob([JSON.stringify(body, null, 2)], { type: "application/json" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = exportFileName(title, new Date());
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setError(`Export failed: ${failureText(e)}`);
    }
  };
  return (
    <>
      <button
        type="button"
        data-testid="export-button"
        aria-label={`Export “${title}” as JSON`}
        title="Export as JSON"
        className="rounded-md p-1.5 text-muted hover:bg-bg hover:text-fg"
        onClick={() => void save()}
      >
        <DownloadIcon />
      </button>
      {error && (
        <p role="alert" data-testid="export-error" className="absolute top-full right-0 z-10 w-56 rounded-md bg-danger-bg px-2 py-1 text-xs text-danger">
          {error}
        </p>
      )}
    </>
  );
}
