"use client";
// Change events from the server (GET /api/events, one EventSource per tab): a counter per conversation and one for
// workspaces, which the open conversation and the workspace views watch to load again.
import { create } from "zustand";

type LiveState = {
  conversations: Record<string, number>;
  workspaces: number;
  /** Times the event stream came back after it broke (a restart): events meanwhile were missed, anything may have changed. */
  reconnects: number;
  conversationChanged: (id: string) => void;
  workspaceChanged: () => void;
  reconnected: () => void;
};

export const useLiveStore = create<LiveState>((set, get) => ({
  conversations: {},
  workspaces: 0,
  reconnects: 0,
  conversationChanged: (id) =>
    set({ conversations: { ...get().conversations, [id]: (get().conversations[id] ?? 0) + 1 } }),
  workspaceChanged: () => set({ workspaces: get().workspaces + 1 }),
  reconnected: () => set({ reconnects: get().reconnects + 1, workspaces: get().workspaces + 1 }),
}));
