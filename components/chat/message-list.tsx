"use client";
// The transcript, virtualised: only the messages near the viewport are in the DOM, so a 2,000-message conversation
// costs each keystroke and each frame what a short one does. It opens at its end, follows a streaming reply while the
// reader is at the bottom (the virtualizer's end anchor), and leaves them alone when they scroll up. Rows are measured
// as they render (a hint chip or tool row that expands grows its row in place).
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { ChatMessage } from "@/lib/chat-message";
import type { ReplyActions } from "./message-actions";
import { estimateMessageHeight } from "./message-height";
import { MessageView } from "./message-view";
import { ModelSwitchMarker } from "./model-switch-marker";
import { modelSwitches } from "./model-switches";

/** Continue is offered on a reply stopped early: by Stop or its length limit, or by an error after some text. */
function continuable(reply: ChatMessage): boolean {
  const status = reply.metadata?.status;
  return (
    status === "incomplete" ||
    (status === "error" && reply.parts.some((p) => p.type === "text" && p.text.trim().length > 0))
  );
}

const GAP = 24;
const PADDING_TOP = 24;
/** What the server (and the first client render) assumes of the viewport, so both render the same rows. */
const INITIAL_RECT = { width: 768, height: 800 };

export function MessageList({
  messages,
  streaming,
  contextWindow,
  onRegenerate,
  onContinue,
}: {
  messages: ChatMessage[];
  streaming: boolean;
  contextWindow?: number;
  onRegenerate?: () => void;
  onContinue?: () => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  // The virtualizer's callbacks read the latest messages through a ref: stable callbacks keep its layout cache valid
  // while a reply streams (a new callback per chunk would re-lay out every row).
  const current = useRef(messages);
  current.current = messages;
  const getItemKey = useCallback((i: number) => current.current[i]?.id ?? i, []);
  const estimateSize = useCallback((i: number) => estimateMessageHeight(current.current[i]), []);
  const initialOffset = useCallback(() => {
    let total = PADDING_TOP;
    for (const m of current.current) total += estimateMessageHeight(m) + GAP;
    return Math.max(0, total - INITIAL_RECT.height);
  }, []);

  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize,
    getItemKey,
    initialOffset,
    initialRect: INITIAL_RECT,
    overscan: 4,
    gap: GAP,
    paddingStart: PADDING_TOP,
    // Anchored to the end only while a reply is written (the list follows it if the reader is at the bottom); at
    // rest, a chip or tool row that expands grows downward and stays where it was clicked.
    anchorTo: streaming ? "end" : "start",
    followOnAppend: true,
    scrollEndThreshold: 80,
  });

  // The server's HTML (and the hydrating render) holds only the conversation's tail in plain flow, so its end shows on
  // the first paint, before any script runs; once mounted, before the browser paints again, the virtual rows take over
  // at the measured end.
  const [mounted, setMounted] = useState(false);
  useLayoutEffect(() => setMounted(true), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the virtual rows take over
  useLayoutEffect(() => {
    if (mounted) virtualizer.scrollToEnd();
  }, [mounted]);

  // The person's own new message always brings them to the end, even when they had scrolled up.
  const lastId = messages.at(-1)?.id;
  const lastRole = messages.at(-1)?.role;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a new message is appended
  useLayoutEffect(() => {
    if (lastRole === "user") virtualizer.scrollToEnd();
  }, [lastId]);

  // A reply that ends while the reader follows it grows once more (its buttons appear): keep them in view.
  const following = useRef(false);
  useLayoutEffect(() => {
    if (streaming) following.current = virtualizer.isAtEnd(80);
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a reply starts or ends
  useLayoutEffect(() => {
    if (!streaming && following.current) virtualizer.scrollToEnd();
    following.current = false;
  }, [streaming]);

  const items = virtualizer.getVirtualItems();
  // Where the model changed (from each reply's recorded model): a divider before that turn.
  const switches = useMemo(() => modelSwitches(messages), [messages]);
  const lastMessage = messages.at(-1);
  const actions = useMemo<ReplyActions | undefined>(
    () =>
      streaming || lastMessage?.role !== "assistant"
        ? undefined
        : { onRegenerate, onContinue: continuable(lastMessage) ? onContinue : undefined },
    [streaming, lastMessage, onRegenerate, onContinue],
  );
  return (
    <div
      ref={scroller}
      data-testid="message-list"
      // Before mounting, a reversed column starts the scroll box at its end, without a script.
      className={`min-h-0 flex-1 overflow-y-auto [overflow-anchor:none] [scrollbar-gutter:stable] ${mounted ? "" : "flex flex-col-reverse"}`}
    >
      <div className="mx-auto w-full max-w-3xl px-3 pb-6 sm:px-6">
        {!mounted ? (
          <div className="flex flex-col gap-6" style={{ paddingTop: PADDING_TOP }}>
            {tail(messages).map((message, i, shown) => {
              const change = switches.get(message.id);
              return (
                <div key={message.id}>
                  {change && <ModelSwitchMarker change={change} />}
                  <MessageView
                    message={message}
                    streaming={streaming && i === shown.length - 1 && message.role === "assistant"}
                    contextWindow={contextWindow}
                    actions={message === lastMessage ? actions : undefined}
                  />
                </div>
              );
            })}
          </div>
        ) : (
          <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const message = messages[item.index];
              if (!message) return null;
              const change = switches.get(message.id);
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className="absolute top-0 left-0 w-full"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  {change && <ModelSwitchMarker change={change} />}
                  <MessageView
                    message={message}
                    streaming={streaming && item.index === messages.length - 1 && message.role === "assistant"}
                    contextWindow={contextWindow}
                    actions={message === lastMessage ? actions : undefined}
                  />
                </div>
              );
            })}
          </div>
        )}
        {streaming && messages.at(-1)?.role === "user" && (
          <div data-testid="thinking" className="flex gap-1 pt-6 pb-2" role="status" aria-label="Thinking">
            {[0, 1, 2].map((i) => (
              <span
                key={i}
                className="size-1.5 animate-pulse rounded-full bg-faint"
                style={{ animationDelay: `${i * 150}ms` }}
              />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

/** The last messages that fill about a screen, by estimate: what the server renders. */
function tail(messages: ChatMessage[]): ChatMessage[] {
  let height = 0;
  let start = messages.length;
  while (start > 0 && height < INITIAL_RECT.height * 1.25 && messages.length - start < 40) {
    start--;
    height += estimateMessageHeight(messages[start]) + GAP;
  }
  return messages.slice(start);
}
