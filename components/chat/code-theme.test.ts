// The code highlight colours keep 4.5:1 against the code background of their theme (WCAG AA for normal text): every
// token colour of code-theme.css, on the theme's code-bg from tailwind.config.ts, or on the rule's own background.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const read = (file: string) => fs.readFileSync(path.join(import.meta.dirname, file), "utf8");

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

describe("code highlight colours", () => {
  const config = read("../../tailwind.config.ts");
  const codeBg = [...config.matchAll(/"code-bg": "(#[0-9a-f]{6})"/g)].map((m) => m[1]!);
  const rules = [...read("code-theme.css").matchAll(/([^{}]+)\{([^}]*)\}/g)].map(([, selector, body]) => ({
    selector: selector!
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\s+/g, " ")
      .trim(),
    color: /(?:^|[\s;])color:\s*(#[0-9a-fA-F]{6})/.exec(body!)?.[1],
    background: /background:\s*(#[0-9a-fA-F]{6})/.exec(body!)?.[1],
  }));

  it("reads both themes' code backgrounds and the token colours", () => {
    expect(codeBg).toHaveLength(2);
    expect(rules.filter((r) => r.color).length).toBeGreaterThan(10);
  });

  it("keeps 4.5:1 for every token colour in both themes", () => {
    const [light, dark] = codeBg;
    const low = rules
      .filter((r) => r.color)
      .map((r) => ({
        ...r,
        ratio: contrast(r.color!, r.background ?? (r.selector.includes('data-theme="dark"') ? dark! : light!)),
      }))
      .filter((r) => r.ratio < 4.5)
      .map((r) => `${r.selector}: ${r.color} at ${r.ratio.toFixed(2)}:1`);
    expect(low).toEqual([]);
  });
});
