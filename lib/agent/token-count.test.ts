import { readFileSync } from "node:fs";
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { describe, expect, it } from "vitest";
import {
  countInBoundedPieces,
  countTokens,
  createTokenCounter,
  DIRECT_LIMIT,
  encodingFor,
  MAX_PIECE,
  selectEncodingFor,
  TOKEN_COUNTER_MAX_BYTES,
} from "./token-count.ts";

describe("token counting", () => {
  it("chooses the encoding per model family", () => {
    expect(encodingFor("gpt-4o-mini")).toBe("o200k_base");
    expect(encodingFor("gpt-4.1")).toBe("o200k_base");
    expect(encodingFor("o3-mini")).toBe("o200k_base");
    expect(encodingFor("gpt-4")).toBe("cl100k_base");
    expect(encodingFor("gpt-4-turbo")).toBe("cl100k_base");
    expect(encodingFor("openai/gpt-3.5-turbo")).toBe("cl100k_base");
    expect(encodingFor("llama3.1:8b")).toBe("o200k_base");
  });

  it("counts with the chosen encoding", async () => {
    const text = "Rivers carve valleys through erosion — 12345 🌊";
    const o200k = countTokens(text);
    await selectEncodingFor("gpt-4");
    const cl100k = countTokens(text);
    await selectEncodingFor("gpt-4o");
    expect(countTokens(text)).toBe(o200k);
    expect(cl100k).not.toBe(o200k);
    expect(countTokens("")).toBe(0);
  });
});

describe("token counting in bounded pieces", () => {
  const punctuation = "=-+*#@!%^&~|<>?;:.,_";
  let seed = 7;
  const random = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  const randomRun = (length: number, alphabet: string) =>
    Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");

  /** The tokenizer's own work on what it was given: each pre-split piece costs the square of its length. */
  function spy() {
    const calls: string[] = [];
    const count = (text: string) => {
      calls.push(text);
      return countO200k(text);
    };
    const work = () =>
      calls.reduce(
        (sum, text) => sum + [...text.matchAll(O200K_TOKEN_SPLIT_REGEX)].reduce((n, [p]) => n + p.length ** 2, 0),
        0,
      );
    return { calls, count, work };
  }

  it("is exactly gpt-tokenizer's count on ordinary prose, code and markup", async () => {
    await selectEncodingFor("gpt-4o");
    const files = ["README.md", "lib/agent/reply-loop.ts", "lib/chat/reply/run.ts", "package.json"].map((f) =>
      readFileSync(f, "utf8"),
    );
    const samples = [
      ...files,
      files.join("\n\n"),
      "Rivers carve valleys through erosion — 12345 🌊\r\n\tIndented line;\n\n\n    four spaces\n".repeat(400),
      "Ünïcödé wörds, 中文 text, עברית, русский текст и emoji 👩‍👩‍👧‍👦 mixed in.\n".repeat(300),
      `| a | b |\n|---|---|\n| ${"-".repeat(200)} | ${"x".repeat(250)} |\n`.repeat(50),
    ];
    for (const text of samples) {
      expect(text.length).toBeGreaterThan(DIRECT_LIMIT);
      expect(countTokens(text)).toBe(countO200k(text));
    }
    await selectEncodingFor("gpt-4");
    for (const text of samples) expect(countTokens(text)).toBe(countCl100k(text));
    await selectEncodingFor("gpt-4o");
  });

  it("counts special-token spellings as plain text instead of throwing", () => {
    expect(countTokens("hi <|endoftext|> there")).toBe(
      countO200k("hi <|endoftext|> there", { disallowedSpecial: new Set() }),
    );
    expect(countTokens(`${"<|im_start|>".repeat(200)} x`)).toBeGreaterThan(200);
  });

  it("counts long unbroken runs within 1% of the exact count", () => {
    const runs = [
      "=".repeat(12_000),
      "a".repeat(12_000),
      " ".repeat(12_000),
      "\n".repeat(12_000),
      "中文字符测试".repeat(2_000),
      randomRun(12_000, punctuation),
      `before ${"=".repeat(5_000)} between\n${"x".repeat(3_000)} after`,
    ];
    for (const text of runs) {
      const exact = countO200k(text, { disallowedSpecial: new Set() });
      expect(Math.abs(countTokens(text) - exact)).toBeLessThanOrEqual(Math.max(2, exact * 0.01));
    }
  });

  it("never hands the tokenizer a piece longer than MAX_PIECE, so its work grows linearly", () => {
    const work = (text: string) => {
      const s = spy();
      countInBoundedPieces(text, s.count, O200K_TOKEN_SPLIT_REGEX);
      for (const call of s.calls)
        for (const [piece] of call.matchAll(O200K_TOKEN_SPLIT_REGEX))
          expect(piece.length).toBeLessThanOrEqual(MAX_PIECE);
      return s.work();
    };
    for (const make of [
      (n: number) => "=".repeat(n),
      (n: number) => randomRun(n, punctuation),
      (n: number) => `x ${"b".repeat(n)} y`,
    ]) {
      const one = work(make(25_000));
      const four = work(make(100_000));
      // Whole-run counting does 25,000² and then 16× that; bounded pieces do at most MAX_PIECE per character.
      expect(one).toBeLessThanOrEqual(MAX_PIECE * 25_002);
      expect(four / one).toBeLessThan(4.5);
    }
  });

  it("keeps surrogate pairs whole when it slices a run", () => {
    const s = spy();
    countInBoundedPieces("😀".repeat(3_000), s.count, O200K_TOKEN_SPLIT_REGEX);
    for (const call of s.calls)
      expect(call).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe("a token counter's cache", () => {
  it("keeps at most TOKEN_COUNTER_MAX_BYTES of text, and still counts right", () => {
    const count = createTokenCounter(64);
    const text = (i: number) => `${i} ${"word ".repeat(40_000)}`; // 200,000 characters each
    for (let i = 0; i < 20; i++) expect(count(text(i))).toBe(countTokens(text(i)));
    expect(count.cachedBytes()).toBeLessThanOrEqual(TOKEN_COUNTER_MAX_BYTES);
    expect(count.cachedBytes()).toBeGreaterThan(0);
  });
});
