"use client";
// Light/dark switch; the choice is a cookie so the server renders the right theme with no flash.
import { useEffect, useState } from "react";
import { MoonIcon, SunIcon } from "./ui/icons";

export function ThemeToggle() {
  const [dark, setDark] = useState<boolean | null>(null);
  useEffect(() => {
    const explicit = document.documentElement.dataset.theme;
    setDark(explicit ? explicit === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches);
  }, []);
  const toggle = () => {
    const next = !dark;
    setDark(next);
    const theme = next ? "dark" : "light";
    document.documentElement.dataset.theme = theme;
    // biome-ignore lint/suspicious/noDocumentCookie: a plain preference cookie read by the server layout
    document.cookie = `hintline_theme=${theme}; Path=/; Max-Age=31536000; SameSite=Lax`;
  };
  return (
    <button
      type="button"
      data-testid="theme-toggle"
      onClick={toggle}
      aria-label={dark ? "Switch to light theme" : "Switch to dark theme"}
      title="Toggle theme"
      className="rounded-lg p-2 text-muted hover:bg-chip hover:text-fg"
    >
      {dark ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
