// Which language a fenced code block is in, from the `language-xyz` class the markdown gives its <code>: the
// highlight.js grammar to load (one of those Hintline ships) and the label to show. Pure, so it can be unit-tested.

export type CodeLanguage = { grammar: Grammar | null; label: string };

export const GRAMMARS = [
  "bash",
  "c",
  "cpp",
  "css",
  "diff",
  "go",
  "java",
  "javascript",
  "json",
  "markdown",
  "php",
  "python",
  "ruby",
  "rust",
  "sql",
  "typescript",
  "xml",
  "yaml",
] as const;
export type Grammar = (typeof GRAMMARS)[number];

const ALIASES: Record<string, Grammar> = {
  sh: "bash",
  shell: "bash",
  zsh: "bash",
  console: "bash",
  h: "c",
  "c++": "cpp",
  cc: "cpp",
  hpp: "cpp",
  patch: "diff",
  golang: "go",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsonc: "json",
  md: "markdown",
  py: "python",
  rb: "ruby",
  rs: "rust",
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  html: "xml",
  svg: "xml",
  yml: "yaml",
};

const LABELS: Record<Grammar, string> = {
  bash: "Shell",
  c: "C",
  cpp: "C++",
  css: "CSS",
  diff: "Diff",
  go: "Go",
  java: "Java",
  javascript: "JavaScript",
  json: "JSON",
  markdown: "Markdown",
  php: "PHP",
  python: "Python",
  ruby: "Ruby",
  rust: "Rust",
  sql: "SQL",
  typescript: "TypeScript",
  xml: "HTML/XML",
  yaml: "YAML",
};

const SPECIFIC_LABELS: Record<string, string> = { html: "HTML", svg: "SVG", tsx: "TSX", jsx: "JSX" };

/** The language of a `className` such as "language-ts"; no class (or an unknown language) is plain text. */
export function codeLanguage(className: string | undefined): CodeLanguage {
  const name = /(?:^|\s)language-([\w+#.-]{1,40})/.exec(className ?? "")?.[1]?.toLowerCase();
  if (!name || name === "text" || name === "plaintext" || name === "txt") return { grammar: null, label: "Text" };
  const grammar = (GRAMMARS as readonly string[]).includes(name) ? (name as Grammar) : ALIASES[name];
  if (!grammar) return { grammar: null, label: name };
  return { grammar, label: SPECIFIC_LABELS[name] ?? LABELS[grammar] };
}
