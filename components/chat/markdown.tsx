"use client";
// Markdown for replies. Raw HTML in the text is shown as text, never executed (no rehype-raw), and link URLs go
// through react-markdown's safe URL filter (no javascript: links).
import { memo, useState } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { CopyIcon } from "../ui/icons";

function CodeBlock({ children }: { children: React.ReactNode }) {
  const [copied, setCopied] = useState(false);
  const text = extractText(children);
  return (
    <div className="group relative">
      <pre className="overflow-x-auto rounded-lg border border-border bg-code p-3 text-[0.85em] leading-relaxed">{children}</pre>
      <button
        type="button"
        aria-label="Copy code"
        className="absolute top-2 right-2 rounded-md border border-border bg-elevated p-1 text-muted opacity-0 transition group-hover:opacity-100 focus:opacity-100"
        onClick={() => {
          void navigator.clipboard?.writeText(text).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1200);
          });
        }}
      >
        {copied ? <span className="px-1 text-xs">Copied</span> : <CopyIcon />}
      </button>
    </div>
  );
}

function extractText(node: React.ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(extractText).join("");
  if (node && typeof node === "object" && "props" in node) {
    return extractText((node as { props: { children?: React.ReactNode } }).props.children);
  }
  return "";
}

const components: Components = {
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
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

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div data-testid="message-text" className="prose-chat">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components} skipHtml={false}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
