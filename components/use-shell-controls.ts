"use client";
// The frame's controls: the two drawers (narrow screens), the folded columns (wide screens, remembered on this device),
// the shortcuts dialog, and the keyboard shortcuts that work them.
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useUiStore } from "@/lib/stores/ui-store";
import { useWorkspacesStore } from "@/lib/stores/workspaces-store";
import { focusComposer, useShortcuts } from "./shortcuts/use-shortcuts";

/** Where the side panel is a column (Tailwind's `xl`); below it, a drawer. */
const PANEL_COLUMN_QUERY = "(min-width: 80rem)";

export function useShellControls({ hasPanel, workspaceId }: { hasPanel: boolean; workspaceId?: string }) {
  const [drawer, setDrawer] = useState(false);
  const [panelDrawer, setPanelDrawer] = useState(false);
  // Wide screens fold the conversation list (Ctrl+Shift+S) and the side panel (Ctrl+.) away, remembered on this
  // device; narrow screens use the drawers. The side panel is a column only from 80rem (1280 px): below it, beside a
  // 288 px list, it left the transcript 416 px at 1024 px, so there it opens as a drawer over the transcript.
  const sidebarHidden = useUiStore((s) => s.sidebarHidden);
  const panelHidden = useUiStore((s) => s.panelHidden);
  const [help, setHelp] = useState(false);
  const router = useRouter();
  const togglePanel = () => {
    if (!hasPanel) return;
    if (window.matchMedia(PANEL_COLUMN_QUERY).matches) useUiStore.getState().togglePanel();
    else setPanelDrawer((open) => !open);
  };
  const toggleSidebar = () => {
    if (window.matchMedia("(min-width: 48rem)").matches) useUiStore.getState().toggleSidebar();
    else setDrawer((open) => !open);
  };
  // A drawer left open while the window grows past its breakpoint would hide itself but keep the page modal: close it.
  useEffect(() => {
    const wide = [
      [window.matchMedia("(min-width: 48rem)"), () => setDrawer(false)],
      [window.matchMedia(PANEL_COLUMN_QUERY), () => setPanelDrawer(false)],
    ] as const;
    const listeners = wide.map(([query, close]) => {
      const listener = () => query.matches && close();
      query.addEventListener("change", listener);
      return () => query.removeEventListener("change", listener);
    });
    return () => {
      for (const remove of listeners) remove();
    };
  }, []);
  useShortcuts({
    "new-chat": () => router.push("/"),
    "focus-composer": focusComposer,
    "toggle-sidebar": toggleSidebar,
    "toggle-panel": togglePanel,
    help: () => setHelp(true),
  });
  useEffect(() => {
    void useUiStore.persist.rehydrate();
  }, []);
  useEffect(() => {
    const store = useWorkspacesStore;
    void Promise.resolve(store.persist.rehydrate()).then(() => {
      if (workspaceId) store.getState().select(workspaceId);
      store.getState().setReady();
    });
  }, [workspaceId]);
  return {
    drawer,
    setDrawer,
    panelDrawer,
    setPanelDrawer,
    sidebarHidden,
    panelHidden,
    help,
    setHelp,
    togglePanel,
    toggleSidebar,
  };
}
