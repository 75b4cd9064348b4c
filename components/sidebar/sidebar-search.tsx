"use client";
// The sidebar's search box: titles and message text of the chosen workspace's conversations (GET /api/conversations?q=),
// or of every workspace's with "All workspaces" (&scope=all: a result from another workspace names it, and opening it
// switches there), asked 200 ms after the last keystroke; the matching conversations replace the list meanwhile.
import Link from "next/link";
import { useEffect, useId, useState } from "react";
import { MAX_SEARCH_QUERY_CHARS, searchWords } from "@/lib/agent/search-text";
import type { ConversationSummary } from "@/lib/chat-message";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { useWorkspacesStore, workspaceLabel } from "@/lib/stores/workspaces-store";
import { highlightPieces, matchCountText } from "./search-text";

type Match = ConversationSummary & { match: { messageId: string; snippet: string } | { title: true } };

const DEBOUNCE_MS = 200;

function Marked({ text, query }: { text: string; query: string }) {
  return highlightPieces(text, query).map((piece, i) =>
    piece.mark ? (
      <mark key={i} className="rounded-sm bg-accent/25 text-fg">
        {piece.text}
      </mark>
    ) : (
      piece.text
    ),
  );
}

export function SidebarSearch({
  workspaceId,
  activeId,
  onActiveChange,
  onNavigate,
}: {
  workspaceId: string | null;
  activeId?: string;
  /** Whether a search is shown (the normal list is hidden meanwhile). */
  onActiveChange: (active: boolean) => void;
  onNavigate?: () => void;
}) {
  const inputId = useId();
  const [text, setText] = useState("");
  const [everywhere, setEverywhere] = useState(false);
  const [results, setResults] = useState<{ query: string; matches: Match[]; everywhere: boolean } | null>(null);
  const workspaces = useWorkspacesStore((s) => s.workspaces);
  const nameOf = (id: string) => {
    const found = workspaces.find((w) => w.id === id);
    return found ? workspaceLabel(found) : undefined;
  };
  const [error, setError] = useState<string | null>(null);
  const query = searchWords(text).length > 0 ? text.trim() : "";
  const active = query !== "";

  useEffect(() => onActiveChange(active), [active, onActiveChange]);

  useEffect(() => {
    if (!query || workspaceId === null) {
      setResults(null);
      setError(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const params = new URLSearchParams(everywhere ? { q: query, scope: "all" } : { q: query, workspaceId });
      apiFetch<Match[]>(`/api/conversations?${params}`, { signal: controller.signal })
        .then((matches) => {
          setResults({ query, matches, everywhere });
          setError(null);
        })
        .catch((e) => {
          if ((e as Error)?.name !== "AbortError") setError(failureText(e));
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, workspaceId, everywhere]);

  const clear = () => setText("");

  return (
    <>
      <div role="search" className="px-3 pb-2">
        <label htmlFor={inputId} className="sr-only">
          Search conversations
        </label>
        <div className="relative">
          <input
            id={inputId}
            type="search"
            data-testid="conversation-search"
            placeholder="Search conversations"
            autoComplete="off"
            value={text}
            maxLength={MAX_SEARCH_QUERY_CHARS}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape" && text) {
                e.preventDefault();
                e.stopPropagation();
                clear();
              }
            }}
            className="w-full rounded-lg border border-border bg-bg py-1.5 pr-8 pl-3 text-sm outline-none focus:border-accent/60 [&::-webkit-search-cancel-button]:hidden"
          />
          {text && (
            <button
              type="button"
              data-testid="search-clear"
              aria-label="Clear search"
              title="Clear search (Esc)"
              onClick={clear}
              className="absolute top-1/2 right-1.5 -translate-y-1/2 rounded-md px-1.5 text-muted hover:bg-chip hover:text-fg"
            >
              ×
            </button>
          )}
        </div>
        {workspaces.length > 1 && (
          <label className="mt-1.5 flex w-fit items-center gap-1.5 text-xs text-muted">
            <input
              type="checkbox"
              data-testid="search-everywhere"
              checked={everywhere}
              onChange={(e) => setEverywhere(e.target.checked)}
              className="accent-accent"
            />
            All workspaces
          </label>
        )}
      </div>
      {active && (
        <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
          <p
            role="status"
            data-testid="search-status"
            className={results?.matches.length ? "sr-only" : "px-3 py-2 text-sm text-muted"}
          >
            {error ??
              (results === null
                ? "Searching…"
                : results.matches.length === 0
                  ? `No conversations match “${results.query}”${results.everywhere ? " in any workspace" : ""}.`
                  : matchCountText(results.matches.length))}
          </p>
          {results && results.matches.length > 0 && (
            // biome-ignore lint/a11y/useKeyWithClickEvents: closes the drawer after a link was followed
            <ul data-testid="search-results" aria-label="Search results" className="space-y-0.5" onClick={onNavigate}>
              {results.matches.map((m) => (
                <li key={m.id} data-testid="search-result" data-conversation-id={m.id}>
                  <Link
                    href={`/c/${m.id}`}
                    aria-current={m.id === activeId ? "page" : undefined}
                    className={`block rounded-lg px-3 py-2 text-sm transition ${m.id === activeId ? "bg-chip font-medium" : "text-fg/85 hover:bg-chip/60"}`}
                  >
                    <span className="flex items-baseline gap-2">
                      <span data-testid="search-result-title" className="min-w-0 truncate">
                        <Marked text={m.title} query={results.query} />
                      </span>
                      {m.archived === true && (
                        <span
                          data-testid="search-archived"
                          className="shrink-0 rounded border border-border px-1 text-[11px] font-normal text-muted"
                        >
                          Archived
                        </span>
                      )}
                    </span>
                    {m.workspaceId !== workspaceId && nameOf(m.workspaceId) && (
                      <span data-testid="search-workspace" className="mt-0.5 block truncate text-xs text-muted">
                        in {nameOf(m.workspaceId)}
                      </span>
                    )}
                    {"snippet" in m.match && (
                      <span
                        data-testid="search-snippet"
                        className="mt-0.5 line-clamp-2 block text-xs font-normal text-muted"
                      >
                        <Marked text={m.match.snippet} query={results.query} />
                      </span>
                    )}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </>
  );
}
