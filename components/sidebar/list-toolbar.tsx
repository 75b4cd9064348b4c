"use client";
// Above the conversation list: the switch to the archived conversations (and back), and the selection mode that
// exports several conversations at once into one file.
import { useEffect, useMemo, useState } from "react";
import type { ConversationSummary } from "@/lib/chat-message";
import { warnFailure } from "@/lib/client-log";
import { failureText } from "@/lib/stores/api-client";
import { useConversationsStore } from "@/lib/stores/conversations-store";
import { exportSeveral } from "./export-button";

export type Selection = {
  active: boolean;
  start: () => void;
  stop: () => void;
  ids: string[];
  rowOf: (id: string) => { selected: boolean; toggle: () => void } | undefined;
};

/** Which listed conversations are selected (those that leave the list leave the selection). */
export function useSelection(conversations: readonly ConversationSummary[]): Selection {
  const [active, setActive] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const listed = useMemo(() => new Set(conversations.map((c) => c.id)), [conversations]);
  const ids = conversations.filter((c) => chosen.has(c.id)).map((c) => c.id);
  useEffect(() => {
    if ([...chosen].some((id) => !listed.has(id))) setChosen((old) => new Set([...old].filter((id) => listed.has(id))));
  }, [chosen, listed]);
  return {
    active,
    ids,
    start: () => setActive(true),
    stop: () => {
      setActive(false);
      setChosen(new Set());
    },
    rowOf: (id) =>
      active
        ? {
            selected: chosen.has(id),
            toggle: () =>
              setChosen((old) => {
                const next = new Set(old);
                if (!next.delete(id)) next.add(id);
                return next;
              }),
          }
        : undefined,
  };
}

const button = "rounded-md px-2 py-1 text-xs font-medium text-muted hover:bg-chip hover:text-fg disabled:opacity-60";

export function ListToolbar({ selection }: { selection: Selection }) {
  const archivedView = useConversationsStore((s) => s.archivedView);
  const showArchived = useConversationsStore((s) => s.showArchived);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const count = selection.ids.length;

  const exportSelected = async () => {
    setBusy(true);
    setError(null);
    try {
      await exportSeveral(selection.ids);
      selection.stop();
    } catch (e) {
      setError(`Export failed: ${failureText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-1 px-3 pb-1.5">
      {selection.active ? (
        <>
          <span data-testid="selection-count" className="mr-auto text-xs text-muted">
            {count === 0 ? "Choose conversations" : `${count} selected`}
          </span>
          <button
            type="button"
            data-testid="export-selected"
            disabled={count === 0 || busy}
            onClick={() => void exportSelected()}
            className={button}
          >
            {busy ? "Exporting…" : `Export ${count}`}
          </button>
          <button type="button" data-testid="select-cancel" onClick={selection.stop} className={button}>
            Cancel
          </button>
        </>
      ) : (
        <>
          <button
            type="button"
            data-testid="archived-toggle"
            aria-pressed={archivedView}
            title={archivedView ? "Back to the conversations" : "Show the archived conversations"}
            onClick={() => void showArchived(!archivedView).catch(warnFailure("loading the conversations failed"))}
            className={`${button} ${archivedView ? "bg-chip text-fg" : ""}`}
          >
            Archived
          </button>
          <button
            type="button"
            data-testid="select-toggle"
            title="Select conversations to export them at once"
            onClick={selection.start}
            className={`${button} ml-auto`}
          >
            Select
          </button>
        </>
      )}
      {error && (
        <p
          role="alert"
          data-testid="export-selected-error"
          className="w-full rounded-md bg-danger-bg px-2 py-1 text-xs text-danger"
        >
          {error}
        </p>
      )}
    </div>
  );
}
