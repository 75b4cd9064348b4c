"use client";
// Listens for the app's keyboard shortcuts (see shortcuts.ts) on the whole window.
import { useEffect, useRef } from "react";
import { isTextField, matchShortcut, type ShortcutAction } from "./shortcuts";

/** `handlers`: the actions this part of the page carries out (another useShortcuts may carry out the others). */
export function useShortcuts(handlers: Partial<Record<ShortcutAction, () => void>>): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const action = matchShortcut({
        key: e.key,
        code: e.code,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        shiftKey: e.shiftKey,
        altKey: e.altKey,
        inTextField: isTextField(e.target),
      });
      const handler = action && latest.current[action];
      if (!handler) return;
      e.preventDefault();
      handler();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** Moves focus to the message box, when the page has one. */
export function focusComposer(): void {
  document.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]')?.focus();
}
