import { describe, expect, it } from "vitest";
import { matchShortcut, type ShortcutKey } from "./shortcuts";

const press = (key: string, mods: Partial<ShortcutKey> = {}): ShortcutKey => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  inTextField: false,
  ...mods,
});

describe("matchShortcut", () => {
  it("maps the listed keys to their actions, Cmd counting as Ctrl", () => {
    expect(matchShortcut(press("O", { ctrlKey: true, shiftKey: true }))).toBe("new-chat");
    expect(matchShortcut(press("o", { metaKey: true, shiftKey: true }))).toBe("new-chat");
    expect(matchShortcut(press("Escape", { shiftKey: true, inTextField: true }))).toBe("focus-composer");
    expect(matchShortcut(press(".", { ctrlKey: true }))).toBe("toggle-panel");
    expect(matchShortcut(press("S", { ctrlKey: true, shiftKey: true }))).toBe("toggle-sidebar");
    expect(matchShortcut(press("s", { metaKey: true, shiftKey: true }))).toBe("toggle-sidebar");
    expect(matchShortcut(press("s", { ctrlKey: true }))).toBeNull();
    expect(matchShortcut(press("/", { ctrlKey: true, inTextField: true }))).toBe("help");
    expect(matchShortcut(press("?", { shiftKey: true }))).toBe("help");
    expect(matchShortcut(press("P", { altKey: true, shiftKey: true, inTextField: true }))).toBe("toggle-mode");
    // A Mac's Option+Shift+P is "∏" by its character, KeyP by its place.
    expect(matchShortcut(press("∏", { code: "KeyP", altKey: true, shiftKey: true }))).toBe("toggle-mode");
  });

  it("leaves typing and the browser's own keys alone", () => {
    expect(matchShortcut(press("?", { shiftKey: true, inTextField: true }))).toBeNull();
    expect(matchShortcut(press("Escape"))).toBeNull();
    expect(matchShortcut(press("o", { ctrlKey: true }))).toBeNull();
    expect(matchShortcut(press(".", { ctrlKey: true, altKey: true }))).toBeNull();
    expect(matchShortcut(press("a"))).toBeNull();
    // Tab and Shift+Tab move the focus, in the message box too.
    expect(matchShortcut(press("Tab", { shiftKey: true, inTextField: true }))).toBeNull();
    expect(matchShortcut(press("Tab", { inTextField: true }))).toBeNull();
    expect(matchShortcut(press("p", { altKey: true }))).toBeNull();
    expect(matchShortcut(press("P", { altKey: true, shiftKey: true, ctrlKey: true }))).toBeNull();
  });
});
