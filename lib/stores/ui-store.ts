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
  /** Wide screens: the conversation list is folded away (remembered on this device). */
  sidebarHidden: boolean;
  toggleSidebar: () => void;
  /** Wide screens: the side panel (tasks and plan) is folded away (remembered on this device). */
  panelHidden: boolean;
  togglePanel: () => void;
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
      sidebarHidden: false,
      toggleSidebar: () => set({ sidebarHidden: !get().sidebarHidden }),
      panelHidden: false,
      togglePanel: () => set({ panelHidden: !get().panelHidden }),
      hydrated: false,
    }),
    // Rehydrated after mount (see AppShell) so the server-rendered HTML and the first client render agree.
    {
      name: "hintline-ui",
      skipHydration: true,
      partialize: (s) => ({
        showHints: s.showHints,
        remindersExplained: s.remindersExplained,
        sidebarHidden: s.sidebarHidden,
        panelHidden: s.panelHidden,
      }),
      onRehydrateStorage: () => () => useUiStore.setState({ hydrated: true }),
    },
  ),
);
