// Hintline's design tokens, in one place: the colours of both themes (the hint-chip palette among them), the radii
// and the fonts. app/globals.css loads this file with Tailwind 4's `@config`. Colours are CSS variables, set here for
// the light theme, the dark theme (html[data-theme="dark"]) and a dark system preference when no theme was chosen,
// so a class like `bg-panel` or `text-muted/60` follows the theme with no rebuild.
// Every text colour keeps a contrast of at least 4.5:1 on bg, panel, elevated, chip and code in its theme.
import type { Config } from "tailwindcss";
import plugin from "tailwindcss/plugin";

type Palette = Record<(typeof COLOR_NAMES)[number], string>;

const COLOR_NAMES = [
  "bg",
  "panel",
  "elevated",
  "fg",
  "muted",
  "faint",
  "border",
  "accent",
  "accent-fg",
  "danger",
  "danger-bg",
  "code-bg",
  // The hint-chip palette: the pill's fill, its outline and its words.
  "chip",
  "chip-border",
  "chip-fg",
] as const;

const light: Palette = {
  bg: "#fbfbf9",
  panel: "#f3f3f0",
  elevated: "#ffffff",
  fg: "#1d1d1f",
  muted: "#5f5f64",
  faint: "#68686d",
  border: "#e5e5e0",
  accent: "#3a54cc",
  "accent-fg": "#ffffff",
  danger: "#c0392b",
  "danger-bg": "#fdf0ee",
  "code-bg": "#f0f0ec",
  chip: "#ecece8",
  "chip-border": "#e5e5e0",
  "chip-fg": "#5f5f64",
};

const dark: Palette = {
  bg: "#161618",
  panel: "#1d1d20",
  elevated: "#232327",
  fg: "#ececef",
  muted: "#a0a0a8",
  faint: "#94949c",
  border: "#2e2e33",
  accent: "#8098ff",
  "accent-fg": "#0f1220",
  danger: "#ff7b6b",
  "danger-bg": "#2c1a18",
  "code-bg": "#202024",
  chip: "#26262b",
  "chip-border": "#2e2e33",
  "chip-fg": "#a0a0a8",
};

const variables = (palette: Palette, scheme: "light" | "dark") => ({
  ...Object.fromEntries(Object.entries(palette).map(([name, value]) => [`--${name}`, value])),
  "color-scheme": scheme,
});

export default {
  content: [],
  theme: {
    extend: {
      // `bg-code` is the code background (--code-bg).
      colors: Object.fromEntries(COLOR_NAMES.map((name) => [name === "code-bg" ? "code" : name, `var(--${name})`])),
      borderRadius: {
        sm: "0.25rem",
        md: "0.375rem",
        lg: "0.5rem",
        xl: "0.75rem",
        "2xl": "1rem",
      },
      fontFamily: {
        // Self-hosted (@fontsource-variable/inter, imported by app/layout.tsx): no request leaves the server.
        sans: [
          '"Inter Variable"',
          "ui-sans-serif",
          "system-ui",
          "-apple-system",
          '"Segoe UI"',
          "Roboto",
          "Arial",
          "sans-serif",
        ],
        mono: ["ui-monospace", "SFMono-Regular", '"SF Mono"', "Menlo", "Consolas", '"Liberation Mono"', "monospace"],
      },
    },
  },
  plugins: [
    plugin(({ addBase }) => {
      addBase({
        ":root": variables(light, "light"),
        "@media (prefers-color-scheme: dark)": { ':root:not([data-theme="light"])': variables(dark, "dark") },
        ':root[data-theme="dark"]': variables(dark, "dark"),
      });
    }),
  ],
} satisfies Config;
