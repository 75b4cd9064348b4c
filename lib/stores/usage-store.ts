"use client";
// The open conversation's context usage: seeded by the page, moved live by `data-context-usage` stream parts.
import { create } from "zustand";
import type { ContextUsage } from "../chat-message.ts";

type UsageState = {
  conversationId: string | null;
  usage: ContextUsage | null;
  seed: (conversationId: string, usage: ContextUsage | null) => void;
  receive: (usage: ContextUsage) => void;
};

export const useUsageStore = create<UsageState>((set) => ({
  conversationId: null,
  usage: null,
  seed: (conversationId, usage) => set({ conversationId, usage }),
  // A figure without cache figures (a compression) keeps the ones shown.
  receive: (usage) =>
    set((state) => ({ usage: usage.cache || !state.usage?.cache ? usage : { ...usage, cache: state.usage.cache } })),
}));
