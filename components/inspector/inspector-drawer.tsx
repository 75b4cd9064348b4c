"use client";
// The inspector: exactly what the next model call would receive — the system prompt section by section (origin and
// tokens), then every message as the model gets it, hints included; a switch previews the context without hints.
// Above them, the conversation's model calls so far with their cache figures, costs and cache breaks.
import { base64Bytes, formatBytes } from "@/lib/agent/attachments";
import type { ModelMessage } from "ai";
import { useCallback, useEffect, useState } from "react";
import { apiFetch } from "@/lib/stores/api-client";
import type { StrategyDecision } from "@/lib/agent/injection-strategy";
import { Drawer, DrawerClose, DrawerTitle } from "../ui/drawer";
import { CacheCalls, type CacheView } from "./cache-calls";
import type { ChildCalls } from "./cost-rollup";
import { StateSourcesPanel, type StateSourcesView } from "./state-sources-panel";
import { StrategyView } from "./strategy-view";
import { SubagentCosts } from "./subagent-costs";

type ContextView = {
  system: string;
  sections: Array<{ id: string; title: string; origin: string; tokens: number; text: string }>;
  messages: ModelMessage[];
  messageTokens: number[];
  tools: string[];
  /** The system prompt and the built-in tools: their tokens, and whether the tools are described in brief. */
  fixed?: { tokens: number; toolStyle: "full" | "compact"; toolTokens: number };
  usage: { inputTokens: number; contextWindow: number; triggerTokens: number; bufferStartTokens: number };
  cache: CacheView;
  /** The subagents' model calls, rolled into this conversation's figures. */
  subagents?: ChildCalls[];
  strategy?: StrategyDecision;
  workspace?: { workspaceId: string; pending: string[] };
  state?: StateSourcesView;
};

function messageText(message: ModelMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => {
      if (part.type === "text") return part.text;
      if (part.type === "tool-call") return `→ ${part.toolName}(${JSON.stringify(part.input)})`;
      if (part.type === "tool-result") {
        const value = (part.output as { value?: unknown }).value;
        return `← ${part.toolName}: ${typeof value === "string" ? value : JSON.stringify(value)}`;
      }
      if (part.type === "file") {
        // The image itself is sent as base64: shown by what it is, not by its thousands of characters.
        const data = (part as { data?: unknown }).data;
        // Base64, bare or tagged ({ type: "data", data }).
        const base64 = typeof data === "string" ? data : (data as { data?: unknown } | undefined)?.data;
        const size = typeof base64 === "string" ? ` · ${formatBytes(base64Bytes(base64))}` : "";
        return `[${part.mediaType} sent as a file part${part.filename ? ` · ${JSON.stringify(part.filename)}` : ""}${size}]`;
      }
      return `[${part.type}]`;
    })
    .join("\n");
}

const isHint = (m: ModelMessage) => m.role === "user" && messageText(m).startsWith("<system-reminder>");

export function InspectorDrawer({ conversationId, onClose }: { conversationId: string; onClose: () => void }) {
  const [hints, setHints] = useState(true);
  const [view, setView] = useState<ContextView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setView(await apiFetch<ContextView>(`/api/conversations/${conversationId}/context?hints=${hints}`));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [conversationId, hints]);
  useEffect(() => void load(), [load]);

  return (
    <Drawer
      open
      onOpenChange={(open) => !open && onClose()}
      title="Next model input"
      testId="inspector"
      className="w-full max-w-xl bg-elevated"
    >
      <header className="flex items-center justify-between gap-3 border-b border-border px-5 py-3">
        <div>
          <DrawerTitle className="font-semibold">Next model input</DrawerTitle>
          {view && (
            // Two counts that differ by design: Hintline's estimate of what it sends next, and the provider's own count
            // of what the last call read (its tokenizer, and the input before this turn's reply was added).
            <div className="text-xs text-muted">
              <p data-testid="inspector-total">
                next input: {view.usage.inputTokens.toLocaleString()} tokens of{" "}
                {view.usage.contextWindow.toLocaleString()} (counted here)
              </p>
              {view.cache.lastCall && (
                <p data-testid="inspector-last-call">
                  last call, as the provider counted: {view.cache.lastCall.inputTokens.toLocaleString()} tokens
                </p>
              )}
              <p>tools: {view.tools.join(", ")}</p>
            </div>
          )}
          {view?.fixed && (
            <p data-testid="inspector-fixed" className="text-xs text-muted">
              Fixed part: {view.fixed.tokens.toLocaleString()} tokens (
              {Math.round((100 * view.fixed.tokens) / Math.max(1, view.usage.contextWindow))}% of the window; tools{" "}
              {view.fixed.toolTokens.toLocaleString()}
              {view.fixed.toolStyle === "compact" ? ", described in brief for this window" : ""})
            </p>
          )}
        </div>
        <div className="flex items-center gap-3">
          <label className="flex items-center gap-1.5 text-xs text-muted">
            <input
              type="checkbox"
              data-testid="inspector-hints"
              checked={hints}
              onChange={(e) => setHints(e.target.checked)}
            />
            with hints
          </label>
          <button
            type="button"
            data-testid="inspector-refresh"
            onClick={() => void load()}
            className="rounded-md px-2 py-1 text-sm text-muted hover:bg-chip"
          >
            Refresh
          </button>
          <DrawerClose aria-label="Close inspector" className="rounded-md px-2 py-1 text-sm text-muted hover:bg-chip">
            Close
          </DrawerClose>
        </div>
      </header>
      <div className="flex-1 space-y-5 overflow-y-auto px-5 py-4 text-sm">
        {error && (
          <p role="alert" className="text-danger">
            {error}
          </p>
        )}
        {view && (
          <>
            <CacheCalls cache={view.cache} />
            <SubagentCosts own={view.cache.calls} agents={view.subagents ?? []} />
            {view.strategy && <StrategyView strategy={view.strategy} />}
            <section>
              <h3 className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">System prompt</h3>
              <div className="space-y-2">
                {view.sections.map((s) => (
                  <details
                    key={s.id}
                    data-testid="inspector-section"
                    data-section={s.id}
                    className="rounded-lg border border-border"
                  >
                    <summary className="flex cursor-pointer items-center justify-between gap-2 px-3 py-2">
                      <span className="font-medium">{s.title}</span>
                      <span className="text-xs text-muted">
                        {s.origin} · {s.tokens} tokens
                      </span>
                    </summary>
                    <pre
                      data-testid="inspector-section-text"
                      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must be reachable by keyboard to be scrolled
                      tabIndex={0}
                      role="region"
                      aria-label={`${s.title} text`}
                      className="overflow-x-auto border-t border-border bg-code px-3 py-2 font-mono text-xs whitespace-pre-wrap"
                    >
                      {s.text}
                    </pre>
                  </details>
                ))}
              </div>
              {view.workspace && view.workspace.pending.length > 0 && (
                <div
                  data-testid="inspector-workspace-pending"
                  className="mt-2 rounded-lg border border-border px-3 py-2 text-xs"
                >
                  <p className="font-medium">
                    Workspace changes pending in the system prompt ({view.workspace.pending.length})
                  </p>
                  <p className="text-muted">
                    The agent was told them in Workspace hints; the system prompt takes them in at the next compression.
                  </p>
                  <ul className="mt-1 list-none space-y-0.5 font-mono whitespace-pre-wrap">
                    {view.workspace.pending.map((line, i) => (
                      <li key={i}>{line}</li>
                    ))}
                  </ul>
                </div>
              )}
            </section>
            {view.state && view.state.sources.length > 0 && <StateSourcesPanel view={view.state} />}
            <section>
              <h3 className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
                Messages ({view.messages.length})
              </h3>
              <ol className="space-y-2">
                {view.messages.map((m, i) => (
                  <li
                    key={i}
                    data-testid="inspector-message"
                    data-role={m.role}
                    data-hint={isHint(m)}
                    className="rounded-lg border border-border"
                  >
                    <div className="flex items-center justify-between px-3 py-1.5 text-xs text-muted">
                      <span className="font-medium text-fg/80">{isHint(m) ? "user · hint" : m.role}</span>
                      <span>{view.messageTokens[i]} tokens</span>
                    </div>
                    <pre
                      data-testid="inspector-message-text"
                      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must be reachable by keyboard to be scrolled
                      tabIndex={0}
                      role="region"
                      aria-label={`Message ${i + 1} text`}
                      className="max-h-48 overflow-auto border-t border-border bg-code px-3 py-2 font-mono text-xs whitespace-pre-wrap"
                    >
                      {messageText(m)}
                    </pre>
                  </li>
                ))}
              </ol>
            </section>
          </>
        )}
      </div>
    </Drawer>
  );
}
