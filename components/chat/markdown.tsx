"use client";
// Markdown for replies. Raw HTML in the text is shown as text, never executed (no rehype-raw), and link URLs go
// through react-markdown's safe URL filter (no javascript: links). A remote image waits for a click (markdown-image.tsx).
// Math ($…$ inline, $$…$$ on its own lines) is typeset by KaTeX; its stylesheet and fonts are bundled with the app
// (app/layout.tsx), nothing is fetched from elsewhere. A formula KaTeX cannot read is shown as its TeX, in red.
import { memo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeKatex from "rehype-katex";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import { CodeBlock } from "./code-block";
import { MarkdownImage } from "./markdown-image";

const components: Components = {
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  img: ({ src, alt }) => <MarkdownImage src={src} alt={alt} />,
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
        {text}
      </ReactMarkdown>
    </div>
  );
});
