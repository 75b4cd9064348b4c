import { describe, expect, it } from "vitest";
import { mayHoldMath, prepareMath } from "./math-delimiters.ts";

describe("prepareMath", () => {
  it("keeps dollar amounts as money", () => {
    expect(prepareMath("It costs $5 and $10.50, or $1,000 a year.")).toBe(
      "It costs \\$5 and \\$10.50, or \\$1,000 a year.",
    );
    expect(prepareMath("Budgets of $5k and $2bn.")).toBe("Budgets of \\$5k and \\$2bn.");
    expect(prepareMath("$20 at the start of a line")).toBe("\\$20 at the start of a line");
  });

  it("leaves dollar math alone", () => {
    for (const text of [
      "Euler: $e^{i\\pi} + 1 = 0$.",
      "$2x + 1 = 5$",
      "$x_1$ and $10^3$",
      "$$\n\\int_0^1 x^2\\,dx\n$$",
      "Already escaped \\$5.",
    ]) {
      expect(prepareMath(text)).toBe(text);
    }
  });

  it("turns LaTeX's \\( \\) and \\[ \\] into dollar math", () => {
    expect(prepareMath("so \\( a^2 + b^2 = c^2 \\) holds")).toBe("so $a^2 + b^2 = c^2$ holds");
    expect(prepareMath("The integral:\n\\[\n\\int_0^1 x\\,dx = \\tfrac12\n\\]\nDone.")).toBe(
      "The integral:\n\n$$\n\\int_0^1 x\\,dx = \\tfrac12\n$$\n\nDone.",
    );
  });

  it("leaves code exactly as written", () => {
    const fenced = "Price:\n```js\nconst price = `$5`; // \\(x\\)\n```\nthen $5.";
    expect(prepareMath(fenced)).toBe("Price:\n```js\nconst price = `$5`; // \\(x\\)\n```\nthen \\$5.");
    expect(prepareMath("Run `echo $5` for $5.")).toBe("Run `echo $5` for \\$5.");
    // A fence still streaming (no closing fence yet) is code to the end.
    expect(prepareMath("Look:\n```sh\necho $5 \\(x\\)")).toBe("Look:\n```sh\necho $5 \\(x\\)");
  });

  it("returns text without dollars or backslashes unchanged", () => {
    const text = "x".repeat(10_000);
    expect(prepareMath(text)).toBe(text);
  });
});

describe("mayHoldMath", () => {
  it("is true only where a formula can be: not for plain text, money or escaped dollars", () => {
    expect(mayHoldMath(prepareMath("Plain words, no formulas."))).toBe(false);
    expect(mayHoldMath(prepareMath("It costs $5 and $10."))).toBe(false);
    expect(mayHoldMath(prepareMath("Inline $x^2$ here."))).toBe(true);
    expect(mayHoldMath(prepareMath("Displayed \\[ a + b \\] there."))).toBe(true);
    expect(mayHoldMath(prepareMath("Inline \\( y \\) too."))).toBe(true);
  });
});
