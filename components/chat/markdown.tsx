"use client";
// Markdown for replies. Raw HTML in the text is shown as text, never executed (no rehype-raw), and link URLs go
// through react-markdown's safe URL filter (no javascript: links). A remote image waits for a click (markdown-image.tsx).
// Math ($…$ or \(…\) inline, $$…$$ or \[…\] displayed; "$5" stays money: math-delimiters.ts) is typeset by KaTeX; its stylesheet and fonts are bundled with the app
// (app/layout.tsx), nothing is fetched from elsewhere. A formula KaTeX cannot read is shown as its TeX, in red.
import { memo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeKatex from "rehype-katex";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import { CodeBlock } from "./code-block";
import { MarkdownImage } from "./markdown-image";
import { prepareMath } from "./math-delimiters";

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
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <div role="region" aria-label="Table" tabIndex={0} className="max-w-full overflow-x-auto rounded outline-none focus-visible:ring-2 focus-visible:ring-accent/60">
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

const REMARK = [remarkGfm, remarkMath];
// `trust: false` (KaTeX's default) keeps \href, \url and friends from making links; errors render as text.
const REHYPE: NonNullable<Parameters<typeof ReactMarkdown>[0]["rehypePlugins"]> = [[rehypeKatex, { throwOnError: false, strict: "ignore", trust: false, maxExpand: 200, maxSize: 20 }]];

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div data-testid="message-text" className="prose-chat">
      <ReactMarkdown remarkPlugins={REMARK} rehypePlugins={REHYPE} components={components} skipHtml={false}>
        {prepareMath(text)}
      </ReactMarkdown>
    </div>
  );
});
