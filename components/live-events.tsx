"use client";
// Subscribes the tab to the server's change events and routes them: the conversation list, the task panel and the
// Subagents list load again, and the open conversation hears of its changes (components/chat/chat.tsx). Bursts are coalesced.
import { useEffect } from "react";
import { useAgentsStore } from "@/lib/stores/agents-store";
import { useConversationsStore } from "@/lib/stores/conversations-store";
import { useLiveStore } from "@/lib/stores/live-store";
import { useTasksStore } from "@/lib/stores/tasks-store";
import { warnFailure } from "@/lib/client-log";

type ChangeEvent = { type: "conversation" | "conversations" | "tasks" | "workspace" | "agents"; id: string };

const COALESCE_MS = 150;

export function LiveEvents() {
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/api/events");
    const pending = new Map<string, ChangeEvent>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const events = [...pending.values()];
      pending.clear();
      if (events.some((e) => e.type === "conversations"))
        void useConversationsStore.getState().refresh().catch(warnFailure("reloading the conversation list failed"));
      for (const event of events) {
        if (event.type === "conversation") useLiveStore.getState().conversationChanged(event.id);
        if (event.type === "tasks") void useTasksStore.getState().reload(event.id);
        if (event.type === "agents") void useAgentsStore.getState().reload(event.id);
        if (event.type === "workspace") useLiveStore.getState().workspaceChanged();
      }
    };
    // The stream came back after it broke (the server restarted): what changed meanwhile was never sent, so the open
    // views load again — a reply the restarted server resumes is followed again.
    let broken = false;
    source.onerror = () => {
      broken = true;
    };
    source.onopen = () => {
      if (!broken) return;
      broken = false;
      useLiveStore.getState().reconnected();
      void useConversationsStore.getState().refresh().catch(warnFailure("reloading the conversation list failed"));
    };
    source.onmessage = (message) => {
      let event: ChangeEvent;
      try {
        event = JSON.parse(message.data as string) as ChangeEvent;
      } catch {
        return;
      }
      pending.set(event.type === "conversations" ? event.type : `${event.type}:${event.id}`, event);
      timer ??= setTimeout(flush, COALESCE_MS);
    };
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, []);
  return null;
}
