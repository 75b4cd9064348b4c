"use client";
// Light/dark switch; the choice is a cookie so the server renders the right theme with no flash.
import { useSyncExternalStore } from "react";
import { MoonIcon, SunIcon } from "./ui/icons";

/** Whether the page is dark now: html[data-theme], else the system preference. Follows changes from anywhere. */
function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  const media = window.matchMedia("(prefers-color-scheme: dark)");
  media.addEventListener("change", onChange);
  return () => {
    observer.disconnect();
    media.removeEventListener("change", onChange);
  };
}

function isDark(): boolean {
  const explicit = document.documentElement.dataset.theme;
  return explicit ? explicit === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches;
}

/** The theme and a switch for it; dark is null during server rendering. */
export function useTheme(): { dark: boolean | null; toggle: () => void; label: string } {
  const dark = useSyncExternalStore(subscribe, isDark, () => null);
  const toggle = () => {
    const theme = isDark() ? "light" : "dark";
    document.documentElement.dataset.theme = theme;
    // biome-ignore lint/suspicious/noDocumentCookie: a plain preference cookie read by the server layout
    document.cookie = `hintline_theme=${theme}; Path=/; Max-Age=31536000; SameSite=Lax`;
  };
  return { dark, toggle, label: dark ? "Switch to light theme" : "Switch to dark theme" };
}

export function ThemeToggle() {
  const { dark, toggle, label } = useTheme();
  return (
    <button
      type="button"
      data-testid="theme-toggle"
      onClick={toggle}
      aria-label={label}
      title="Toggle theme"
      className="rounded-lg p-2 text-muted hover:bg-chip hover:text-fg"
    >
      {dark ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
