"use client";
// View preferences that survive reloads (kept in localStorage).
import { create } from "zustand";
import { persist } from "zustand/middleware";

type UiState = {
  showHints: boolean;
  toggleHints: () => void;
  /** The one-time explainer of what a reminder (a hint chip) is was dismissed. */
  remindersExplained: boolean;
  dismissReminderExplainer: () => void;
  /** The stored preferences have been read (until then, nothing one-time is shown: it may have been dismissed). */
  hydrated: boolean;
};

export const useUiStore = create<UiState>()(
  persist(
    (set, get) => ({
      showHints: true,
      toggleHints: () => set({ showHints: !get().showHints }),
      remindersExplained: false,
      dismissReminderExplainer: () => set({ remindersExplained: true }),
      hydrated: false,
    }),
    // Rehydrated after mount (see AppShell) so the server-rendered HTML and the first client render agree.
    {
      name: "hintline-ui",
      skipHydration: true,
      partialize: (s) => ({ showHints: s.showHints, remindersExplained: s.remindersExplained }),
      onRehydrateStorage: () => () => useUiStore.setState({ hydrated: true }),
    },
  ),
);
