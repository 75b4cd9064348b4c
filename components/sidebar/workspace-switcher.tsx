"use client";
// The workspace switcher at the top of the sidebar: choose a workspace (the list below shows its conversations and
// "New chat" starts one in it), create one, rename or delete the chosen one, open its settings.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useState } from "react";
import type { ConversationSummary } from "@/lib/chat-message";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { useConversationsStore } from "@/lib/stores/conversations-store";
import {
  DEFAULT_WORKSPACE,
  isDefaultWorkspaceId,
  useWorkspacesStore,
  workspaceLabel,
} from "@/lib/stores/workspaces-store";
import { SlidersIcon, PencilIcon, PlusIcon, TrashIcon } from "../ui/icons";

type Mode =
  | { kind: "idle" }
  | { kind: "create" }
  | { kind: "rename" }
  | { kind: "delete" }
  | { kind: "delete-blocked"; conversations: number };

const iconButton = "rounded-md p-1.5 text-muted hover:bg-chip hover:text-fg disabled:opacity-40";

export function WorkspaceSwitcher({
  activeId,
  conversationWorkspaceId,
  onNavigate,
}: {
  activeId?: string;
  conversationWorkspaceId?: string;
  onNavigate?: () => void;
}) {
  const { workspaces, currentId, loaded, ready } = useWorkspacesStore();
  const { refresh, select, create, rename, remove } = useWorkspacesStore.getState();
  const router = useRouter();
  const [mode, setMode] = useState<Mode>({ kind: "idle" });
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const current = workspaces.find((w) => w.id === currentId);

  useEffect(() => {
    if (ready) void refresh().catch((e) => setError(failureText(e)));
  }, [ready, refresh]);

  // The open conversation's workspace: from the server, or, for one started on this page, the one its first message
  // named (the list no longer shows it once the workspace changed). Undefined for a chat with no message yet: its
  // first message goes to whichever workspace is chosen then.
  const openConversationWorkspace = () =>
    conversationWorkspaceId ??
    (activeId
      ? (useWorkspacesStore.getState().startedIn[activeId] ??
        useConversationsStore.getState().conversations.find((c) => c.id === activeId)?.workspaceId)
      : undefined);

  // `owner`: the open conversation's workspace, read before the choice changed anything.
  const switchTo = (id: string, owner = openConversationWorkspace()) => {
    setMode({ kind: "idle" });
    setError(null);
    select(id);
    // A conversation of another workspace is left for a new chat in the chosen one (what the screen names is where
    // the next message goes); a settings page follows along. The drawer stays open when only the list changes.
    const path = window.location.pathname;
    const target = path.startsWith("/w/") ? `/w/${id}` : owner && owner !== id ? "/" : null;
    if (target) {
      router.push(target);
      onNavigate?.();
    }
  };

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      setMode({ kind: "idle" });
    } catch (e) {
      const text = failureText(e, { kept: mode.kind === "delete" ? undefined : "name" });
      // "Workspace ws_… still has 2 conversations" names the workspace as the person knows it.
      setError(current ? text.replace(/^Workspace \S+ /, `The workspace “${current.name}” `) : text);
    } finally {
      setBusy(false);
    }
  };

  const submitName = (event: FormEvent) => {
    event.preventDefault();
    const name = draft.trim();
    if (!name) return setError("Give the workspace a name.");
    void run(async () => {
      if (mode.kind === "create") {
        const owner = openConversationWorkspace();
        const created = await create(name);
        switchTo(created.id, owner);
      } else if (current) await rename(current.id, name);
    });
  };

  const open = (kind: "create" | "rename") => {
    setError(null);
    setDraft(kind === "rename" ? (current?.name ?? "") : "");
    setMode({ kind } as Mode);
  };
  const isDefault = isDefaultWorkspaceId(currentId);
  // A member uses a shared workspace; only its owner or an admin renames or deletes it (the server says the same).
  const readOnly = current?.editable === false;
  const sharedOnly = "Shared with you to use: only its owner or an admin can change it";

  // A workspace that still has conversations is never deleted: that is checked (and said) before anything is asked.
  const askDelete = async () => {
    setError(null);
    setBusy(true);
    try {
      const held = await apiFetch<ConversationSummary[]>(
        `/api/conversations?workspaceId=${encodeURIComponent(currentId)}`,
      );
      setMode(held.length > 0 ? { kind: "delete-blocked", conversations: held.length } : { kind: "delete" });
    } catch (e) {
      setError(failureText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-testid="workspace-switcher" data-current={currentId} data-loaded={loaded} className="px-3 pt-3">
      <label htmlFor="workspace-select" className="mb-1 block text-xs font-medium text-muted">
        Workspace
      </label>
      <div className="flex items-center gap-0.5">
        <select
          id="workspace-select"
          data-testid="workspace-select"
          value={currentId}
          onChange={(e) => switchTo(e.target.value)}
          className="min-w-0 flex-1 truncate rounded-lg border border-border bg-elevated px-2 py-1.5 text-sm outline-none focus:border-accent/60"
        >
          {!current && <option value={currentId}>{currentId === DEFAULT_WORKSPACE ? "default" : "…"}</option>}
          {workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {workspaceLabel(w)}
            </option>
          ))}
        </select>
        <button
          type="button"
          data-testid="workspace-new"
          aria-label="New workspace"
          title="New workspace"
          className={iconButton}
          onClick={() => open("create")}
        >
          <PlusIcon />
        </button>
        <Link
          href={`/w/${currentId}`}
          data-testid="workspace-settings-link"
          aria-label="Workspace settings"
          title="Workspace settings: instructions, memory, knowledge, skills"
          className={iconButton}
          onClick={onNavigate}
        >
          <SlidersIcon />
        </Link>
        <button
          type="button"
          data-testid="workspace-rename"
          aria-label="Rename workspace"
          title={isDefault ? "The default workspace keeps its name" : readOnly ? sharedOnly : "Rename workspace"}
          disabled={isDefault || readOnly}
          className={iconButton}
          onClick={() => open("rename")}
        >
          <PencilIcon />
        </button>
        <button
          type="button"
          data-testid="workspace-delete"
          aria-label="Delete workspace"
          title={isDefault ? "The default workspace cannot be deleted" : readOnly ? sharedOnly : "Delete workspace"}
          disabled={isDefault || readOnly}
          className={`${iconButton} hover:text-danger`}
          onClick={() => void askDelete()}
        >
          <TrashIcon />
        </button>
      </div>
      {(mode.kind === "create" || mode.kind === "rename") && (
        <form onSubmit={submitName} className="mt-2 flex gap-1.5" data-testid="workspace-name-form">
          <input
            data-testid="workspace-name-input"
            aria-label={mode.kind === "create" ? "New workspace name" : "Workspace name"}
            placeholder={mode.kind === "create" ? "New workspace name" : "Workspace name"}
            autoFocus
            maxLength={64}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape") setMode({ kind: "idle" });
            }}
            className="min-w-0 flex-1 rounded-md border border-accent/50 bg-elevated px-2 py-1 text-sm outline-none"
          />
          <button
            type="submit"
            data-testid="workspace-name-save"
            disabled={busy}
            className="rounded-md bg-accent px-2.5 py-1 text-sm text-accent-fg disabled:opacity-60"
          >
            {mode.kind === "create" ? "Create" : "Save"}
          </button>
          <button
            type="button"
            aria-label="Cancel"
            className="rounded-md border border-border px-2 py-1 text-sm"
            onClick={() => setMode({ kind: "idle" })}
          >
            ✕
          </button>
        </form>
      )}
      {mode.kind === "delete" && current && (
        <div
          data-testid="workspace-confirm-delete"
          className="mt-2 rounded-lg border border-danger/30 bg-danger-bg p-2 text-sm"
        >
          <p className="mb-2 text-danger">
            Delete the workspace “{current.name}” with its memory, knowledge files and skills? This cannot be undone.
          </p>
          <div className="flex gap-2">
            <button
              type="button"
              data-testid="workspace-delete-yes"
              disabled={busy}
              className="rounded-md bg-danger px-2.5 py-1 text-white disabled:opacity-60"
              onClick={() =>
                void run(async () => {
                  const owner = openConversationWorkspace();
                  await remove(current.id);
                  // The store chose the default meanwhile (the user's own, in accounts mode).
                  switchTo(useWorkspacesStore.getState().currentId, owner);
                })
              }
            >
              Delete
            </button>
            <button
              type="button"
              data-testid="workspace-delete-no"
              className="rounded-md border border-border px-2.5 py-1"
              onClick={() => setMode({ kind: "idle" })}
            >
              Cancel
            </button>
          </div>
        </div>
      )}
      {mode.kind === "delete-blocked" && current && (
        <div
          data-testid="workspace-delete-blocked-box"
          className="mt-2 flex items-start gap-2 rounded-lg border border-border bg-elevated p-2 text-sm"
        >
          <p data-testid="workspace-delete-blocked" className="flex-1 text-muted">
            The workspace “{current.name}” still has {mode.conversations} conversation
            {mode.conversations === 1 ? "" : "s"}. Delete {mode.conversations === 1 ? "it" : "them"} first; then the
            workspace can be deleted.
          </p>
          <button
            type="button"
            aria-label="Close"
            className="rounded-md px-1.5 text-muted hover:text-fg"
            onClick={() => setMode({ kind: "idle" })}
          >
            ✕
          </button>
        </div>
      )}
      {error && (
        <p role="alert" data-testid="workspace-error" className="mt-2 text-xs text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
