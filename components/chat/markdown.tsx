"use client";
// Markdown for replies. Raw HTML in the text is shown as text, never executed (no rehype-raw), and link URLs go
// through react-markdown's safe URL filter (no javascript: links). A remote image waits for a click (markdown-image.tsx).
// Math ($…$ or \(…\) inline, $$…$$ or \[…\] displayed; "$5" stays money: math-delimiters.ts) is typeset by KaTeX; its stylesheet and fonts are bundled with the app
// (app/layout.tsx), nothing is fetched from elsewhere. A formula KaTeX cannot read is shown as its TeX, in red.
// KaTeX and remark-math are loaded only once a message may hold math (as highlight.js is for code): most pages never
// need them, and they are the largest part of the chat's JavaScript.
import { memo, useEffect, useState } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { warnFailure } from "@/lib/client-log";
import { CodeBlock } from "./code-block";
import { MarkdownImage } from "./markdown-image";
import { mayHoldMath, prepareMath } from "./math-delimiters";

const components: Components = {
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  img: ({ src, alt }) => <MarkdownImage src={src} alt={alt} />,
  // A task list's checkbox shows the state and is named by it; it cannot be ticked in a reply.
  input: ({ type, checked }) =>
    type === "checkbox" ? (
      <input type="checkbox" checked={!!checked} disabled readOnly aria-label={checked ? "Done" : "Not done"} />
    ) : null,
  // A wide table scrolls inside the reply; the scroller takes the focus so that it scrolls by keyboard too.
  table: ({ children }) => (
    <div
      role="region"
      aria-label="Table"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className="max-w-full overflow-x-auto rounded outline-none focus-visible:ring-2 focus-visible:ring-accent/60"
    >
      <table>{children}</table>
    </div>
  ),
  // react-markdown empties an unsafe URL (javascript:, data:…); such a link is shown as its text, not as a link
  // to nowhere that would open the app again in a new tab.
  a: ({ children, href }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    ) : (
      <span data-testid="unsafe-link">{children}</span>
    ),
};

type Plugins = NonNullable<Parameters<typeof ReactMarkdown>[0]["remarkPlugins"]>;
type MathPlugins = { remark: Plugins; rehype: Plugins };

const PLAIN: Plugins = [remarkGfm];
let mathPlugins: MathPlugins | null = null;
let loadingMath: Promise<MathPlugins> | null = null;

function loadMath(): Promise<MathPlugins> {
  loadingMath ??= Promise.all([import("remark-math"), import("rehype-katex")]).then(([remarkMath, rehypeKatex]) => {
    // `trust: false` (KaTeX's default) keeps \href, \url and friends from making links; errors render as text.
    const options = { throwOnError: false, strict: "ignore", trust: false, maxExpand: 200, maxSize: 20 } as const;
    mathPlugins = { remark: [remarkGfm, remarkMath.default], rehype: [[rehypeKatex.default, options]] };
    return mathPlugins;
  });
  return loadingMath;
}

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const prepared = prepareMath(text);
  const wantsMath = mayHoldMath(prepared);
  const [math, setMath] = useState<MathPlugins | null>(mathPlugins);
  useEffect(() => {
    if (!wantsMath || math) return;
    let live = true;
    // Shown as written (its TeX) when the math code cannot be loaded.
    loadMath().then((loaded) => live && setMath(loaded), warnFailure("loading the math typesetter failed"));
    return () => {
      live = false;
    };
  }, [wantsMath, math]);
  const typeset = wantsMath ? math : null;
  return (
    <div data-testid="message-text" className="prose-chat">
      <ReactMarkdown
        remarkPlugins={typeset?.remark ?? PLAIN}
        rehypePlugins={typeset?.rehype}
        components={components}
        skipHtml={false}
      >
        {prepared}
      </ReactMarkdown>
    </div>
  );
});
