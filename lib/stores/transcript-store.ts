"use client";
// Messages the server added to the open conversation outside a reply (the divider "Compress now" stores), for the
// transcript to show at once rather than after a reload.
import { create } from "zustand";
import type { ChatMessage } from "../chat-message.ts";

type TranscriptState = {
  added: { conversationId: string; message: ChatMessage }[];
  add: (conversationId: string, message: ChatMessage) => void;
  /** Takes (and forgets) what was added to that conversation. */
  take: (conversationId: string) => ChatMessage[];
};

export const useTranscriptStore = create<TranscriptState>((set, get) => ({
  added: [],
  add: (conversationId, message) => set({ added: [...get().added, { conversationId, message }] }),
  take: (conversationId) => {
    const mine = get().added.filter((a) => a.conversationId === conversationId);
    if (mine.length) set({ added: get().added.filter((a) => a.conversationId !== conversationId) });
    return mine.map((a) => a.message);
  },
}));
