// Pure: Hintline's keyboard shortcuts — the list the help dialog shows and the matcher the app's key handler uses.
// Chosen not to clash with the browser's own: Ctrl+Shift+O (new chat, as in ChatGPT), Shift+Esc (focus the message
// box), Ctrl+Shift+S (conversation list, as in ChatGPT), Ctrl+. (side panel), ? or Ctrl+/ (this list), Alt+Shift+P
// (plan/build mode: no browser or screen reader binds it, and Tab and Shift+Tab stay the browser's, to move focus).

export type ShortcutAction = "new-chat" | "focus-composer" | "toggle-sidebar" | "toggle-panel" | "toggle-mode" | "help";

/** The plan/build shortcut, as `aria-keyshortcuts` spells it (and the tooltips show it). */
export const MODE_SHORTCUT = "Alt+Shift+P";

export type ShortcutKey = {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** The key was pressed in a text field (an input, a textarea or an editable element). */
  inTextField: boolean;
};

export const SHORTCUTS: Array<{ keys: string[]; description: string }> = [
  { keys: ["Ctrl", "Shift", "O"], description: "New chat" },
  { keys: ["Shift", "Esc"], description: "Focus the message box" },
  { keys: ["Ctrl", "Shift", "S"], description: "Show or hide the conversation list" },
  { keys: ["Ctrl", "."], description: "Show or hide the side panel (tasks and plan)" },
  { keys: ["Esc"], description: "Stop the reply being written" },
  { keys: ["Enter"], description: "Send the message (while a reply runs: queue it for when it ends)" },
  { keys: ["Ctrl", "Enter"], description: "While a reply runs: steer it (read after its current step)" },
  { keys: ["Shift", "Enter"], description: "New line in the message" },
  { keys: ["Alt", "Shift", "P"], description: "Switch plan / build mode" },
  { keys: ["?"], description: "This list (also Ctrl+/)" },
];

/** The action a key press asks for, or null. Cmd counts as Ctrl (macOS). */
export function matchShortcut(e: ShortcutKey): ShortcutAction | null {
  const mod = e.ctrlKey || e.metaKey;
  // By the key's place, not its character: on a Mac, Option+Shift+P types "∏".
  if (e.altKey && e.shiftKey && !mod && (e.code === "KeyP" || e.key.toLowerCase() === "p")) return "toggle-mode";
  if (e.altKey) return null;
  if (mod && e.shiftKey && (e.key.toLowerCase() === "o" || e.code === "KeyO")) return "new-chat";
  if (!mod && e.shiftKey && e.key === "Escape") return "focus-composer";
  if (mod && e.shiftKey && (e.key.toLowerCase() === "s" || e.code === "KeyS")) return "toggle-sidebar";
  if (mod && !e.shiftKey && (e.key === "." || e.code === "Period")) return "toggle-panel";
  if (mod && !e.shiftKey && (e.key === "/" || e.code === "Slash")) return "help";
  // A bare "?" is a character in a text field; outside one it opens the list.
  if (!mod && e.key === "?" && !e.inTextField) return "help";
  return null;
}

export function isTextField(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== "string") return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  if (el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
  if (el.tagName !== "INPUT") return false;
  const type = (el as HTMLInputElement).type;
  return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes(type);
}
