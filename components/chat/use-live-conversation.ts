"use client";
// Keeps an open conversation in step with other tabs (and instances): on a change event, and when this tab is not
// streaming itself, the transcript is loaded again and a reply being written is followed (resumed). The change event
// of a reply this tab has just followed to its end brings nothing new: within a second of such an end, the transcript
// is only loaded again when a new reply is already live (another tab sent a message at once, or a queued message
// became the next turn). A change heard while this tab streams waits until it stops.
import { type RefObject, useEffect, useRef } from "react";
import type { ChatMessage } from "@/lib/chat-message";
import { apiFetch } from "@/lib/stores/api-client";
import { useLiveStore } from "@/lib/stores/live-store";
import { warnFailure } from "@/lib/client-log";

const OWN_REPLY_SETTLE_MS = 1_000;

async function replyIsLive(id: string): Promise<boolean> {
  try {
    const response = await fetch(`/api/conversations/${encodeURIComponent(id)}/stream`);
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return true;
  }
}

export function useLiveConversation({
  id,
  status,
  finishedAt,
  setMessages,
  resumeStream,
}: {
  id: string;
  status: string;
  /** When this tab last saw a reply to its end (Date.now()); 0 when messages were queued after it. */
  finishedAt: RefObject<number>;
  setMessages: (messages: ChatMessage[]) => void;
  resumeStream: () => Promise<void>;
}): void {
  const changes = useLiveStore((s) => (s.conversations[id] ?? 0) + s.reconnects);
  const seen = useRef(changes);
  const statusRef = useRef(status);
  statusRef.current = status;
  const busy = status === "submitted" || status === "streaming";
  useEffect(() => {
    if (changes === seen.current) return;
    // A change heard while this tab streams is looked at once it stops (a queued message may have become the next
    // turn just as this tab's reply ended): it is not marked seen until then.
    if (busy) return;
    seen.current = changes;
    const busyNow = () => statusRef.current === "submitted" || statusRef.current === "streaming";
    let cancelled = false;
    void (async () => {
      if (Date.now() - finishedAt.current < OWN_REPLY_SETTLE_MS && !(await replyIsLive(id))) return;
      const view = await apiFetch<{ messages: ChatMessage[] }>(`/api/conversations/${encodeURIComponent(id)}`);
      if (cancelled || busyNow()) return;
      setMessages(view.messages);
      if (view.messages.at(-1)?.metadata?.status === "streaming") await resumeStream();
    })().catch(warnFailure("reloading the conversation after a change failed"));
    return () => {
      cancelled = true;
    };
  }, [changes, busy, id, finishedAt, setMessages, resumeStream]);
}
