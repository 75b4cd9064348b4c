"use client";
// The model chosen in the header for a conversation that is not stored yet: its first message sends it (the server
// creates the conversation with it); a stored conversation is switched at once by PATCH { model } instead.
import { create } from "zustand";

type ModelChoiceState = {
  /** Conversation id → the chosen `provider/model` id. */
  pending: Record<string, string>;
  choose: (conversationId: string, model: string) => void;
};

export const useModelChoiceStore = create<ModelChoiceState>((set) => ({
  pending: {},
  choose: (conversationId, model) => set((state) => ({ pending: { ...state.pending, [conversationId]: model } })),
}));
