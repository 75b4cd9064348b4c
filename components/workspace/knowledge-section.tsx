"use client";
// A workspace's knowledge files: upload by drag and drop or the file picker (read here as UTF-8 text and sent as
// text; a PDF is sent as it is and the server keeps its extracted text), list with size, tokens and date, view, replace, delete. KNOWLEDGE.md goes into new conversations'
// system prompt within the workspace budget; the agent reads the others on demand.
import { type DragEvent, useCallback, useEffect, useRef, useState } from "react";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { EyeIcon, RetryIcon, TrashIcon, UploadIcon } from "../ui/icons";
import {
  ACCEPT_ATTRIBUTE,
  ACCEPTED_TYPES_TEXT,
  checkPdfFile,
  formatBytes,
  isPdfName,
  knowledgePathFor,
  knowledgeUrl,
  readTextFile,
} from "./text-file";

type FileInfo = { path: string; bytes: number; tokens: number; updatedAt: string };

const contentType = (path: string) =>
  /\.(md|markdown)$/i.test(path) ? "text/markdown; charset=utf-8" : "text/plain; charset=utf-8";

export function KnowledgeSection({ workspaceId, onChanged }: { workspaceId: string; onChanged: () => void }) {
  const [files, setFiles] = useState<FileInfo[] | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [status, setStatus] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [viewing, setViewing] = useState<{ path: string; content: string } | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const replacer = useRef<HTMLInputElement>(null);
  const replacing = useRef<string | null>(null);
  const list = `/api/workspaces/${encodeURIComponent(workspaceId)}/knowledge`;

  const load = useCallback(async () => {
    try {
      setFiles(await apiFetch<FileInfo[]>(list));
    } catch (e) {
      setErrors([failureText(e)]);
    }
  }, [list]);
  useEffect(() => void load(), [load]);

  /** Reads and uploads each file; `path` replaces that file instead of using the file's own name. */
  const upload = async (chosen: readonly File[], path?: string) => {
    const failed: string[] = [];
    const saved: string[] = [];
    setStatus(`Uploading ${chosen.length} file${chosen.length === 1 ? "" : "s"}…`);
    for (const file of chosen) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const pdf = isPdfName(file.name);
      const read = pdf ? checkPdfFile(file.name, bytes) : readTextFile(file.name, bytes);
      if (!read.ok) {
        failed.push(read.error);
        continue;
      }
      const target = path ?? knowledgePathFor(file.name);
      const body: BodyInit = "text" in read ? (read.text as string) : bytes;
      try {
        await apiFetch(knowledgeUrl(workspaceId, target), {
          method: "PUT",
          body,
          headers: { "content-type": pdf ? "application/pdf" : contentType(target) },
        });
        saved.push(target);
      } catch (e) {
        failed.push(`“${file.name}” was not saved: ${failureText(e)}`);
      }
    }
    setErrors(failed);
    setStatus(saved.length ? `Saved ${saved.join(", ")}.` : null);
    if (viewing && saved.includes(viewing.path)) setViewing(null);
    if (saved.length) {
      await load();
      onChanged();
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = [...(event.dataTransfer?.files ?? [])];
    if (dropped.length) void upload(dropped);
  };

  const view = async (path: string) => {
    if (viewing?.path === path) return setViewing(null);
    const response = await fetch(knowledgeUrl(workspaceId, path));
    if (response.ok) setViewing({ path, content: await response.text() });
    else setErrors([`“${path}” could not be opened (HTTP ${response.status}).`]);
  };

  const remove = async (path: string) => {
    try {
      await apiFetch(knowledgeUrl(workspaceId, path), { method: "DELETE" });
      if (viewing?.path === path) setViewing(null);
      setStatus(`Deleted ${path}.`);
      await load();
      onChanged();
    } catch (e) {
      setErrors([failureText(e)]);
    }
  };

  return (
    <section data-testid="knowledge-section" aria-labelledby="knowledge-heading" className="space-y-2">
      <h2 id="knowledge-heading" className="text-sm font-semibold">
        Knowledge files <span className="font-normal text-faint">{files ? `· ${files.length}` : ""}</span>
      </h2>
      <p className="text-xs text-muted">
        <code>KNOWLEDGE.md</code> goes into the system prompt of new conversations as far as the workspace budget allows
        (the agent reads the rest with a tool); the agent sees every other file by path and size and reads it when
        needed. Running conversations are told of changes.
      </p>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop zone; its button is the keyboard way in */}
      <div
        data-testid="knowledge-drop"
        data-dragging={dragging}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`flex flex-col items-center gap-2 rounded-xl border-2 border-dashed px-4 py-5 text-center text-sm ${
          dragging ? "border-accent bg-accent/5" : "border-border"
        }`}
      >
        <UploadIcon />
        <p>
          Drop files here or{" "}
          <button
            type="button"
            data-testid="knowledge-pick"
            className="font-medium text-accent underline"
            onClick={() => picker.current?.click()}
          >
            choose files
          </button>
        </p>
        <p data-testid="knowledge-accepted" className="text-xs text-faint">
          {ACCEPTED_TYPES_TEXT}
        </p>
        <input
          ref={picker}
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          data-testid="knowledge-input"
          aria-label="Choose knowledge files"
          className="sr-only"
          onChange={(e) => {
            const chosen = [...(e.target.files ?? [])];
            e.target.value = "";
            if (chosen.length) void upload(chosen);
          }}
        />
        <input
          ref={replacer}
          type="file"
          accept={ACCEPT_ATTRIBUTE}
          data-testid="knowledge-replace-input"
          aria-label="Choose the replacement file"
          className="sr-only"
          onChange={(e) => {
            const chosen = [...(e.target.files ?? [])];
            e.target.value = "";
            if (chosen[0] && replacing.current) void upload(chosen.slice(0, 1), replacing.current);
          }}
        />
      </div>
      {status && (
        <p role="status" data-testid="knowledge-status" className="text-xs text-muted">
          {status}
        </p>
      )}
      {errors.length > 0 && (
        <ul role="alert" data-testid="knowledge-error" className="space-y-0.5 text-xs text-danger">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      <ul
        data-testid="knowledge-list"
        data-loaded={files !== null}
        className="divide-y divide-border rounded-lg border border-border"
      >
        {files?.length === 0 && <li className="px-3 py-2 text-sm text-muted">No knowledge files yet.</li>}
        {files?.map((f) => (
          <li key={f.path} data-testid="knowledge-file" data-path={f.path} className="px-3 py-2 text-sm">
            <div className="flex items-center gap-2">
              <div className="min-w-0 flex-1">
                <p data-testid="knowledge-path" className="truncate font-mono text-xs">
                  {f.path}
                </p>
                <p className="text-xs text-faint">
                  {formatBytes(f.bytes)} · {f.tokens.toLocaleString()} tokens · updated{" "}
                  {new Date(f.updatedAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
                </p>
              </div>
              <button
                type="button"
                data-testid="knowledge-view"
                aria-label={`View ${f.path}`}
                aria-expanded={viewing?.path === f.path}
                className="rounded-md p-1.5 text-muted hover:bg-chip hover:text-fg"
                onClick={() => void view(f.path)}
              >
                <EyeIcon />
              </button>
              <button
                type="button"
                data-testid="knowledge-replace"
                aria-label={`Replace ${f.path} with another file`}
                title="Replace (upload again)"
                className="rounded-md p-1.5 text-muted hover:bg-chip hover:text-fg"
                onClick={() => {
                  replacing.current = f.path;
                  replacer.current?.click();
                }}
              >
                <RetryIcon />
              </button>
              <button
                type="button"
                data-testid="knowledge-delete"
                aria-label={`Delete ${f.path}`}
                className="rounded-md p-1.5 text-muted hover:bg-chip hover:text-danger"
                onClick={() => void remove(f.path)}
              >
                <TrashIcon />
              </button>
            </div>
            {viewing?.path === f.path && (
              <pre
                data-testid="knowledge-content"
                className="mt-2 max-h-80 overflow-auto rounded-lg bg-code p-2.5 font-mono text-xs whitespace-pre-wrap"
              >
                {viewing.content}
              </pre>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
