"use client";
// A fenced code block: its language on top, a Copy button that is always visible (touch screens have no hover), and
// syntax highlighting once highlight.js and the block's grammar have loaded (plain monospace until then).
import { isValidElement, useEffect, useState } from "react";
import { CopyIcon } from "../ui/icons";
import { highlighter } from "./code-highlight";
import { codeLanguage } from "./code-language";
import "./code-theme.css";

export function CodeBlock({ children }: { children: React.ReactNode }) {
  const code = isValidElement<{ className?: string; children?: React.ReactNode }>(children) ? children : null;
  const text = extractText(code ? code.props.children : children).replace(/\n$/, "");
  const { grammar, label } = codeLanguage(code?.props.className);
  const [html, setHtml] = useState<{ text: string; html: string } | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!grammar) return;
    let live = true;
    highlighter(grammar).then(
      (hljs) => {
        if (live) setHtml({ text, html: hljs.highlight(text, { language: grammar, ignoreIllegals: true }).value });
      },
      () => {}, // a chunk that fails to load leaves the block plain
    );
    return () => {
      live = false;
    };
  }, [grammar, text]);

  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };

  return (
    <div data-testid="code-block" className="overflow-hidden rounded-lg border border-border bg-code">
      <div className="flex items-center justify-between border-b border-border px-3 py-1 text-xs text-muted">
        <span data-testid="code-language">{label}</span>
        <button
          type="button"
          data-testid="copy-code"
          aria-label={copied ? "Code copied" : `Copy ${label} code`}
          onClick={copy}
          className="flex items-center gap-1 rounded-md px-1.5 py-0.5 hover:bg-chip hover:text-fg"
        >
          <CopyIcon width={13} height={13} />
          <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
        </button>
      </div>
      {/* Focusable, so that a long line can be scrolled to by keyboard (axe: scrollable-region-focusable). */}
      <pre
        role="region"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        aria-label={`${label} code`}
        className="overflow-x-auto rounded-b-lg p-3 text-[0.85em] leading-relaxed outline-none focus-visible:ring-2 focus-visible:ring-accent/60"
      >
        {html && html.text === text ? (
          // highlight.js escapes the code it is given: its output holds only its own <span class="hljs-…"> tags.
          <code
            className={`hljs language-${grammar}`}
            data-highlighted="yes"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped by highlight.js
            dangerouslySetInnerHTML={{ __html: html.html }}
          />
        ) : (
          <code className={code?.props.className}>{text}</code>
        )}
      </pre>
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
