// The chat runner's shapes and small rules (lib/stores/chat-runner.ts): its status, its transport, what it reports
// when a reply ends, the messages it makes (ids, snapshots), and which failures a resume can mend. Pure.
import type { ChatOnDataCallback, UIMessage } from "ai";

export type ChatStatus = "submitted" | "streaming" | "ready" | "error";
export type Trigger = "submit-message" | "regenerate-message";

/** Where replies come from: the chat's HTTP requests (components/chat/chat-transport.ts), each an SSE body. */
export type ChatTransport<M extends UIMessage> = {
  sendMessages(options: {
    chatId: string;
    messages: M[];
    trigger: Trigger;
    messageId: string | undefined;
    body: Record<string, unknown> | undefined;
    abortSignal: AbortSignal;
  }): Promise<ReadableStream<Uint8Array>>;
  /** The live reply's stream from its first chunk, or null when none is live. */
  reconnectToStream(options: { chatId: string; abortSignal: AbortSignal }): Promise<ReadableStream<Uint8Array> | null>;
};

export type FinishInfo<M> = {
  message: M;
  messages: M[];
  isAbort: boolean;
  isDisconnect: boolean;
  isError: boolean;
  finishReason?: string;
};

export type ChatCallbacks<M extends UIMessage> = {
  /** Every data part of a reply, transient ones (never kept in the message) included. */
  onData?: ChatOnDataCallback<M>;
  onFinish?: (info: FinishInfo<M>) => void;
  onError?: (error: Error) => void;
};

export type FilePart = { type: "file"; mediaType: string; filename?: string; url: string };

const ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A 16-character id, like the AI SDK's generateId. */
export function generateId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join("");
}

/** A message as the React state holds it: its own array of (shallow-copied) parts, so a rendered one never changes. */
export function snapshot<M extends UIMessage>(message: M): M {
  const copy = { ...message, parts: message.parts.map((part) => ({ ...part })) };
  const metadata: unknown = message.metadata;
  if (Array.isArray(metadata)) copy.metadata = [...metadata] as M["metadata"];
  else if (
    metadata &&
    typeof metadata === "object" &&
    [Object.prototype, null].includes(Object.getPrototypeOf(metadata))
  )
    copy.metadata = { ...metadata } as M["metadata"];
  return copy;
}

/** Chromium and Node word a failed request "…fetch…", Firefox "…network…", Safari "Load failed". */
export function isNetworkDrop(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const message = error.message.toLowerCase();
  return message.includes("fetch") || message.includes("network") || message === "load failed";
}

/** The message a resume starts from: the last reply, when it has tool parts still waiting for their result. */
export function resumedFrom<M extends UIMessage>(message: M | undefined): M | undefined {
  if (message?.role !== "assistant") return undefined;
  const waiting = message.parts.some((p) => {
    const part = p as { type: string; state?: string; providerExecuted?: boolean };
    const tool = part.type.startsWith("tool-") || part.type === "dynamic-tool";
    return (
      tool &&
      (part.state === "input-streaming" ||
        (part.state === "input-available" && part.providerExecuted) ||
        part.state === "approval-responded")
    );
  });
  return waiting ? snapshot(message) : undefined;
}
