"use client";
// View preferences that survive reloads (kept in localStorage).
import { create } from "zustand";
import { persist } from "zustand/middleware";

type UiState = { showHints: boolean; toggleHints: () => void };

export const useUiStore = create<UiState>()(
  persist((set, get) => ({ showHints: true, toggleHints: () => set({ showHints: !get().showHints }) }), // Rehydrated after mount (see AppShell) so the server-rendered HTML and the first client render agree.
    { name: "hintline-ui", skipHydration: true },),
);
