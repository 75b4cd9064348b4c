// What remark-math reads as math, made to match what models write: a dollar amount ("$5 and $10") stays money
// instead of becoming a formula between its two dollar signs, and LaTeX's own delimiters — \( … \) inline, \[ … \]
// displayed — are typeset like $ … $ and $$ … $$. Code (fenced blocks and inline spans) is left exactly as written.

// Fenced blocks (to their closing fence, or to the end while one is still streaming) and inline code spans.
const CODE = /(^|\n)(```|~~~)[^\n]*\n[\s\S]*?(?:\n\2[^\n]*(?=\n|$)|$)|`+[^`\n]*`+/g;
// "$" then an amount — digits with separators, an optional k/m/bn suffix — and then no letter or TeX operator: money.
const MONEY = /(^|[^\\$])\$(?=\d[\d,.]*(?:k|K|m|M|bn|B)?(?![\w^_{\\]))/g;
const DISPLAY = /\\\[([\s\S]+?)\\\]/g;
const INLINE = /\\\(([^\n]+?)\\\)/g;

function prose(text: string): string {
  return text
    .replace(MONEY, "$1\\$")
    .replace(DISPLAY, (_, tex: string) => `\n$$\n${tex.trim()}\n$$\n`)
    .replace(INLINE, (_, tex: string) => `$${tex.trim()}$`);
}

/** The reply's markdown with money escaped and \( \) / \[ \] turned into dollar math, code untouched. */
export function prepareMath(text: string): string {
  if (!text.includes("$") && !text.includes("\\")) return text;
  let out = "";
  let last = 0;
  for (const match of text.matchAll(CODE)) {
    const start = match.index + (match[1]?.length ?? 0);
    out += prose(text.slice(last, start)) + text.slice(start, match.index + match[0].length);
    last = match.index + match[0].length;
  }
  return out + prose(text.slice(last));
}

/** Whether prepared markdown may hold math (an unescaped dollar sign): only then is KaTeX loaded. */
export function mayHoldMath(prepared: string): boolean {
  return /(^|[^\\])\$/.test(prepared);
}
