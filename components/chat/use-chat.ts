"use client";
// The chat's React binding: one ChatRunner (lib/stores/chat-runner.ts) per conversation id, its messages, status and
// error as React state, and the callbacks of the latest render. What components/chat/chat.tsx used of the AI SDK's
// useChat (@ai-sdk/react), without its runtime: `resume` follows a reply still being written when the page opens,
// and one cut by a network drop when the page is seen again. Every update is published at once (no throttle).
import { useEffect, useMemo, useRef, useState } from "react";
import type { UIMessage } from "ai";
import { ChatRunner } from "@/lib/stores/chat-runner";
import type { ChatCallbacks, ChatTransport } from "@/lib/stores/chat-shapes";

type Options<M extends UIMessage> = ChatCallbacks<M> & {
  id: string;
  messages: M[];
  transport: ChatTransport<M>;
  resume?: boolean;
};

type Snapshot<M extends UIMessage> = Pick<ChatRunner<M>, "messages" | "status" | "error"> & { runner: ChatRunner<M> };

const read = <M extends UIMessage>(runner: ChatRunner<M>): Snapshot<M> => ({
  runner,
  messages: runner.messages,
  status: runner.status,
  error: runner.error,
});

const same = <M extends UIMessage>(a: Snapshot<M>, b: Snapshot<M>) =>
  a.runner === b.runner && a.messages === b.messages && a.status === b.status && a.error === b.error;

export function useChat<M extends UIMessage>({ id, messages, transport, resume = false, ...callbacks }: Options<M>) {
  // The runner lives as long as the id; it calls the callbacks and uses the transport of the latest render.
  const latest = useRef({ callbacks, transport });
  latest.current = { callbacks, transport };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new runner for a new conversation only
  const runner = useMemo(
    () =>
      new ChatRunner<M>(
        id,
        messages,
        {
          sendMessages: (options) => latest.current.transport.sendMessages(options),
          reconnectToStream: (options) => latest.current.transport.reconnectToStream(options),
        },
        {
          onData: (part) => latest.current.callbacks.onData?.(part),
          onFinish: (info) => latest.current.callbacks.onFinish?.(info),
          onError: (error) => latest.current.callbacks.onError?.(error),
        },
      ),
    [id],
  );
  useEffect(() => () => void runner.stop(), [runner]);

  const [snapshot, setSnapshot] = useState(() => read(runner));
  // A new conversation's runner: its state shows from this render on.
  if (snapshot.runner !== runner) setSnapshot(read(runner));
  useEffect(() => {
    let subscribed = true;
    const publish = () => {
      if (!subscribed) return;
      const next = read(runner);
      setSnapshot((current) => (current.runner !== runner || same(current, next) ? current : next));
    };
    const unsubscribe = runner.subscribe(publish);
    // Changes between the render and this subscription.
    publish();
    return () => {
      subscribed = false;
      unsubscribe();
    };
  }, [runner]);

  useEffect(() => {
    if (!resume) return;
    if (runner.status !== "submitted" && runner.status !== "streaming") void runner.resumeStream();
    const onVisible = () => {
      if (document.visibilityState === "visible") void runner.resumeIfDisconnected();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [resume, runner]);

  return {
    messages: snapshot.messages,
    status: snapshot.status,
    error: snapshot.error,
    sendMessage: runner.sendMessage,
    regenerate: runner.regenerate,
    resumeStream: runner.resumeStream,
    stop: runner.stop,
    clearError: runner.clearError,
    setMessages: runner.setMessages,
  };
}
