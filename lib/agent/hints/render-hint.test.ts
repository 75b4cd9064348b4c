import { describe, expect, it } from "vitest";
import { bulletReminder, HINT_MAX_CHARS } from "./render-hint.ts";

describe("bulletReminder", () => {
  const more = (n: number) => `- and ${n} more.`;

  it("puts the head and every bullet in one reminder when they fit", () => {
    expect(bulletReminder("Head.", ["- a", "- b"], more)).toBe(
      "<system-reminder>\nHead.\n- a\n- b\n</system-reminder>",
    );
  });

  it("keeps bullets in order while they fit, counts the rest, and never exceeds a hint's size", () => {
    const bullets = Array.from({ length: 50 }, (_, i) => `- ${i} ${"x".repeat(200)}`);
    const text = bulletReminder("Head.", bullets, more);
    expect(text.length).toBeLessThanOrEqual(HINT_MAX_CHARS);
    const shown = text.split("\n").filter((l) => /^- \d+ /.test(l)).length;
    expect(text).toContain(`\n- ${shown - 1} x`);
    expect(text.endsWith(`\n- and ${50 - shown} more.\n</system-reminder>`)).toBe(true);
  });

  it("fills the hint exactly to its size when the last bullet fits only without the count", () => {
    const head = "H";
    const frame = "<system-reminder>\n".length + "\n</system-reminder>".length + head.length + 1;
    const text = bulletReminder(head, [`- ${"y".repeat(HINT_MAX_CHARS - frame - 2)}`], more);
    expect(text.length).toBe(HINT_MAX_CHARS);
  });
});
