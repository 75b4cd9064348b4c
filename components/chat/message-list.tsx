"use client";
// The transcript. Follows the stream while the reader is at the bottom; leaves them alone when they scroll up.
import { useEffect, useRef } from "react";
import type { ChatMessage } from "@/lib/chat-message";
import { MessageView } from "./message-view";

export function MessageList({
  messages,
  streaming,
  contextWindow,
}: {
  messages: ChatMessage[];
  streaming: boolean;
  contextWindow?: number;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  useEffect(() => {
    const el = scroller.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  });

  return (
    <div
      ref={scroller}
      data-testid="message-list"
      className="min-h-0 flex-1 overflow-y-auto [scrollbar-gutter:stable]"
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
      }}
    >
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-3 py-6 sm:px-6">
        {messages.map((message, i) => (
          <MessageView
            key={message.id}
            message={message}
            streaming={streaming && i === messages.length - 1 && message.role === "assistant"}
            contextWindow={contextWindow}
          />
        ))}
        {streaming && messages.at(-1)?.role === "user" && (
          <div data-testid="thinking" className="flex gap-1 py-2" role="status" aria-label="Thinking">
            {[0, 1, 2].map((i) => (
              <span key={i} className="size-1.5 animate-pulse rounded-full bg-faint" style={{ animationDelay: `${i * 150}ms` }} />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
