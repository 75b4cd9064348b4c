"use client";
// The open conversation's context usage: seeded by the page, moved live by `data-context-usage` stream parts.
import { create } from "zustand";
import type { ContextUsage } from "../chat-message.ts";

type UsageState = {
  conversationId: string | null;
  usage: ContextUsage | null;
  /** The page's figure the store was last seeded with (kept by identity; see seed). */
  seededFrom: ContextUsage | null;
  /**
   * Takes the page's figure, unless it is the same one for the same conversation: the meter drawn again (the side
   * panel's drawer, mounted at each opening) must not put back the page's older figure over a live one.
   */
  seed: (conversationId: string, usage: ContextUsage | null) => void;
  receive: (usage: ContextUsage) => void;
};

export const useUsageStore = create<UsageState>((set, get) => ({
  conversationId: null,
  usage: null,
  seededFrom: null,
  seed: (conversationId, usage) => {
    if (get().conversationId === conversationId && get().seededFrom === usage) return;
    set({ conversationId, usage, seededFrom: usage });
  },
  // A figure without cache figures (a compression) keeps the ones shown.
  receive: (usage) =>
    set((state) => ({ usage: usage.cache || !state.usage?.cache ? usage : { ...usage, cache: state.usage.cache } })),
}));
