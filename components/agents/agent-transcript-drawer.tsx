"use client";
// A subagent's transcript, read-only (its own hint chips and tool rows, no composer), in a drawer opened from the
// Subagents panel or the parent's AgentSpawn row. While the child runs the drawer follows it: it loads the child's
// conversation again on the child's change events and every POLL_MS (its reply grows between them).
import { useCallback, useEffect, useState } from "react";
import type { ChatMessage } from "@/lib/chat-message";
import { useAgentsStore } from "@/lib/stores/agents-store";
import { apiFetch } from "@/lib/stores/api-client";
import { useLiveStore } from "@/lib/stores/live-store";
import { ApprovalTarget } from "../chat/approval-card";
import { MessageView } from "../chat/message-view";
import { Drawer, DrawerClose, DrawerTitle } from "../ui/drawer";

const POLL_MS = 1500;

type ChildView = { id: string; messages: ChatMessage[]; agentKey?: string; parentId?: string };

export function AgentTranscriptDrawer() {
  const childId = useAgentsStore((s) => s.openChild);
  const open = useAgentsStore((s) => s.open);
  return childId ? <Transcript key={childId} childId={childId} onClose={() => open(null)} /> : null;
}

function Transcript({ childId, onClose }: { childId: string; onClose: () => void }) {
  const agent = useAgentsStore((s) => s.agents.find((a) => a.conversationId === childId));
  const changes = useLiveStore((s) => s.conversations[childId] ?? 0);
  const [view, setView] = useState<ChildView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const running = agent?.status === "running";
  const load = useCallback(async () => {
    try {
      setView(await apiFetch<ChildView>(`/api/conversations/${encodeURIComponent(childId)}`));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [childId]);
  // Loaded on open, on each change of the child, and once more when it ends (its status changes).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the change counter and the status are the triggers
  useEffect(() => void load(), [load, changes, agent?.status]);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [running, load]);

  const key = agent?.agentKey ?? view?.agentKey ?? childId;
  const streaming = (m: ChatMessage, i: number, all: ChatMessage[]) =>
    running && i === all.length - 1 && m.role === "assistant";
  return (
    <Drawer
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Transcript of ${key}`}
      testId="agent-transcript"
      className="w-full max-w-xl bg-elevated"
    >
      <header className="flex items-center justify-between gap-3 border-b border-border px-5 py-3">
        <div className="min-w-0">
          <DrawerTitle className="truncate font-semibold">Transcript of {key}</DrawerTitle>
          <p
            data-testid="agent-transcript-status"
            data-status={agent?.status ?? ""}
            className="truncate text-xs text-muted"
          >
            {agent ? `${agent.agentId}${agent.label ? ` · ${agent.label}` : ""} · ${agent.status}` : "subagent"} ·
            read-only
          </p>
        </div>
        <DrawerClose
          data-testid="agent-transcript-close"
          aria-label="Close transcript"
          className="rounded-md px-2 py-1 text-sm text-muted hover:bg-chip"
        >
          Close
        </DrawerClose>
      </header>
      <div data-testid="agent-transcript-messages" className="flex-1 space-y-6 overflow-y-auto px-5 py-4 text-sm">
        {error && (
          <p role="alert" className="text-danger">
            {error}
          </p>
        )}
        {!view && !error && <p className="text-muted">Loading…</p>}
        {view?.messages.length === 0 && <p className="text-muted">Nothing yet.</p>}
        {/* A call of the child's that waits is answered at the child's own approvals route. */}
        <ApprovalTarget value={childId}>
          {view?.messages.map((message, i, all) => (
            <MessageView key={message.id} message={message} streaming={streaming(message, i, all)} />
          ))}
        </ApprovalTarget>
      </div>
    </Drawer>
  );
}
