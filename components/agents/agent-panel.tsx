"use client";
// The side panel's Subagents section: each child of the conversation with its status, elapsed time (ticking while it
// runs), tokens and last tool, live (the "agents" change events, from any tab), a Stop per running child, and a
// button that opens its transcript in the drawer (agent-transcript-drawer.tsx).
import { useEffect, useState } from "react";
import { type AgentSummary, useAgentsStore } from "@/lib/stores/agents-store";
import { ApprovalCard } from "../chat/approval-card";
import { StopIcon } from "../ui/icons";
import { elapsedText, STATUS_WORDS } from "./agent-figures";
import { toolInWords } from "@/lib/tool-name";

const STATUS_CLASS: Record<AgentSummary["status"], string> = {
  running: "border-accent/40 text-accent",
  done: "border-border text-muted",
  error: "border-danger/40 text-danger",
  stopped: "border-border text-muted",
};

/** Date.now(), again every second while `ticking`. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

// The page's view seeds the store once: the panel drawn again (the phone's drawer) must not undo live updates.
const seeded = new WeakSet<AgentSummary[]>();

export function AgentPanel({ conversationId, initial }: { conversationId: string; initial: AgentSummary[] }) {
  const seed = useAgentsStore((s) => s.seed);
  const mine = useAgentsStore((s) => s.conversationId === conversationId);
  const agents = useAgentsStore((s) => s.agents);
  const error = useAgentsStore((s) => s.error);
  useEffect(() => {
    if (seeded.has(initial) && useAgentsStore.getState().conversationId === conversationId) return;
    seeded.add(initial);
    seed(conversationId, initial);
  }, [conversationId, initial, seed]);
  const shown = mine ? agents : initial;
  const now = useNow(shown.some((a) => a.status === "running"));
  if (shown.length === 0) return null;
  const running = shown.filter((a) => a.status === "running").length;
  return (
    <section
      data-testid="agent-panel"
      aria-label="Subagents"
      className="flex max-h-[40%] min-h-0 shrink-0 flex-col border-t border-border"
    >
      <header className="flex items-baseline justify-between px-4 pt-3 pb-1">
        <h2 className="text-sm font-semibold">Subagents</h2>
        <span data-testid="agent-count" className="text-xs text-muted">
          {running} running · {shown.length} in all
        </span>
      </header>
      <ul data-testid="agent-list" className="min-h-0 flex-1 space-y-1 overflow-y-auto px-2 pb-2">
        {shown.map((agent) => (
          <AgentRow key={agent.conversationId} agent={agent} now={now} />
        ))}
      </ul>
      {error && (
        <p role="alert" className="px-4 py-1 text-xs text-danger">
          {error}
        </p>
      )}
    </section>
  );
}

function AgentRow({ agent, now }: { agent: AgentSummary; now: number }) {
  const stop = useAgentsStore((s) => s.stop);
  const open = useAgentsStore((s) => s.open);
  const [stopping, setStopping] = useState(false);
  const running = agent.status === "running";
  const name = agent.label ? `${agent.agentKey} (${agent.label})` : agent.agentKey;
  return (
    <li
      data-testid="agent-row"
      data-status={agent.status}
      data-agent-key={agent.agentKey}
      className="rounded-lg px-2 py-1.5 hover:bg-chip/60"
    >
      <div className="flex items-start gap-1">
        <button
          type="button"
          data-testid="agent-open"
          title="Open its transcript"
          className="min-w-0 flex-1 text-left"
          onClick={() => open(agent.conversationId)}
        >
          <span className="sr-only">Open the transcript of {name}: </span>
          <span className="flex items-baseline gap-2">
            <span data-testid="agent-id" title={agent.agentId} className="truncate text-sm font-medium">
              {agent.agentId}
            </span>
            <span
              data-testid="agent-status"
              className={`shrink-0 rounded border px-1 text-[11px] ${STATUS_CLASS[agent.status]}`}
            >
              {STATUS_WORDS[agent.status] ?? agent.status}
            </span>
          </span>
          {agent.label && (
            <span data-testid="agent-label" title={agent.label} className="block truncate text-xs text-fg">
              {agent.label}
            </span>
          )}
          <span className="block truncate text-xs text-muted">
            <span data-testid="agent-elapsed">{elapsedText(agent.startedAt, agent.endedAt, now)}</span>
            {" · "}
            <span data-testid="agent-tokens">{agent.tokens.toLocaleString("en-US")} tokens</span>
            {agent.lastTool && (
              <span data-testid="agent-last-tool" title={agent.lastTool}>
                {" "}
                · {toolInWords(agent.lastTool)}
              </span>
            )}
            {" · "}
            <span className="font-mono">{agent.agentKey}</span>
          </span>
        </button>
        {running && (
          <button
            type="button"
            data-testid="agent-stop"
            aria-label={`Stop ${name}`}
            title="Stop this agent"
            disabled={stopping}
            className="shrink-0 rounded-lg p-1.5 text-muted hover:bg-chip hover:text-fg disabled:opacity-50"
            onClick={() => {
              setStopping(true);
              void stop(agent.conversationId).finally(() => setStopping(false));
            }}
          >
            <StopIcon width={14} height={14} />
          </button>
        )}
      </div>
      {running && agent.approvals?.length ? (
        <div data-testid="agent-approvals" className="mt-1 space-y-1.5">
          <p data-testid="agent-waiting" role="status" className="text-xs font-medium text-fg">
            Waiting for your approval
          </p>
          {agent.approvals.map((a) => (
            <div key={`${a.conversationId}:${a.toolCallId}`} className="space-y-1">
              {a.conversationId !== agent.conversationId && (
                <p data-testid="agent-waiting-helper" className="text-xs text-muted">
                  Asked by its own helper <span className="font-mono">{a.agentKey}</span>:
                </p>
              )}
              <ApprovalCard
                conversationId={a.conversationId}
                toolName={a.toolName}
                toolCallId={a.toolCallId}
                input={a.input}
              />
            </div>
          ))}
        </div>
      ) : null}
    </li>
  );
}
