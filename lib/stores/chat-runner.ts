// One conversation's chat in the browser, without React: the messages, the status (submitted → streaming → ready, or
// error) and the request of the reply being read. What the chat page used of the AI SDK's AbstractChat (`ai` 7), with
// the same requests and the same message updates: send (text and files, a body), regenerate, resume (a live reply
// replayed from its first chunk; after a network drop, on the page's return), stop, clear an error. A reply is read
// by lib/stores/reply-reader.ts (SSE, then lib/stores/ui-message-stream.ts), imported when the first request starts.
// No tools run in the browser, so no tool outputs, approvals (the server takes them: lib/chat/approvals) or automatic
// sends.
import type { ChatOnDataCallback, UIMessage } from "ai";
import {
  type ChatCallbacks,
  type ChatStatus,
  type ChatTransport,
  type FilePart,
  type FinishInfo,
  generateId,
  isNetworkDrop,
  resumedFrom,
  snapshot,
  type Trigger,
} from "./chat-shapes";
import type { StreamingMessage } from "./ui-message-parts";

type ReplyReader = typeof import("./reply-reader");
let loadingReader: Promise<ReplyReader> | undefined;
/** The reply reader, a separate chunk of JavaScript fetched once, by the first request (again after a failed fetch). */
function loadReplyReader(): Promise<ReplyReader> {
  loadingReader ??= import("./reply-reader").catch((error: unknown) => {
    loadingReader = undefined;
    throw error;
  });
  return loadingReader;
}

type Active<M extends UIMessage> = { state: StreamingMessage<M>; abort: AbortController; done: Promise<void> };

export class ChatRunner<M extends UIMessage> {
  private current: { messages: M[]; status: ChatStatus; error: Error | undefined };
  private readonly listeners = new Set<() => void>();
  private active: Active<M> | undefined;
  private activeResume: { abort: AbortController; done: Promise<void> } | undefined;
  /** Requests waiting for the reply reader's code: Stop drops them. */
  private readonly preparing = new Set<AbortController>();
  /** The reply a network drop cut: a resume goes on from it. */
  private resumable: StreamingMessage<M> | undefined;

  constructor(
    readonly id: string,
    messages: M[],
    private readonly transport: ChatTransport<M>,
    private readonly callbacks: ChatCallbacks<M>,
  ) {
    this.current = { messages, status: "ready", error: undefined };
  }

  get messages(): M[] {
    return this.current.messages;
  }
  get status(): ChatStatus {
    return this.current.status;
  }
  get error(): Error | undefined {
    return this.current.error;
  }

  /** Calls `listener` on every change of the messages, the status or the error; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private change(next: Partial<ChatRunner<M>["current"]>): void {
    this.current = { ...this.current, ...next };
    for (const listener of this.listeners) listener();
  }

  private setStatus(status: ChatStatus, error?: Error): void {
    if (this.current.status === status && this.current.error === error) return;
    this.change({ status, error });
  }

  setMessages = (messages: M[] | ((current: M[]) => M[])): void => {
    this.change({ messages: [...(typeof messages === "function" ? messages(this.current.messages) : messages)] });
  };

  /** Adds the person's message (files first, then the text) and reads the reply. */
  sendMessage = async (
    message: { text?: string; files?: FilePart[] },
    options?: { body?: Record<string, unknown> },
  ) => {
    const parts = [...(message.files ?? []), ...(message.text != null ? [{ type: "text", text: message.text }] : [])];
    const sent = { parts, id: generateId(), role: "user", metadata: undefined } as unknown as M;
    this.change({ messages: [...this.current.messages, sent] });
    await this.request("submit-message", options?.body);
  };

  /** Reads the last reply again: the transcript ends before it (or at the person's last message). */
  regenerate = async (): Promise<void> => {
    const { messages } = this.current;
    const last = messages.at(-1);
    if (!last) throw new Error("There is no message to regenerate.");
    this.change({ messages: last.role === "assistant" ? messages.slice(0, -1) : messages });
    await this.request("regenerate-message");
  };

  /** Follows the live reply, if any (the transport says; nothing happens when none is live). */
  resumeStream = async (): Promise<void> => {
    await this.request("resume-stream");
  };

  /** Resumes after a network drop cut the last reply (when the page is seen again). */
  resumeIfDisconnected = async (): Promise<void> => {
    const active = this.active;
    if (!this.resumable && active) {
      await active.done;
      if (this.resumable !== active.state) return;
    }
    if (this.resumable) await this.resumeStream();
  };

  clearError = (): void => {
    if (this.current.status === "error") this.change({ status: "ready", error: undefined });
  };

  /** Ends the reply's request (the words so far stay) and waits until it has let go. */
  stop = async (): Promise<void> => {
    const resume = this.activeResume;
    const active = this.active;
    for (const preparing of this.preparing) preparing.abort();
    resume?.abort.abort();
    active?.abort.abort();
    await Promise.all([resume?.done, active?.done]);
  };

  private async request(trigger: Trigger | "resume-stream", body?: Record<string, unknown>): Promise<void> {
    let finished = () => {};
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    try {
      await this.run(trigger, body, done);
    } finally {
      finished();
    }
  }

  /** For a resume: the live reply's chunks, or undefined when there is none (or this resume was overtaken). */
  private async reconnect(abort: AbortController, isCurrent: () => boolean) {
    try {
      const stream = await this.transport.reconnectToStream({ chatId: this.id, abortSignal: abort.signal });
      if (abort.signal.aborted || !isCurrent() || stream == null) {
        await stream?.cancel().catch(() => {});
        if (isCurrent()) {
          this.setStatus("ready");
          this.resumable = undefined;
        }
        return undefined;
      }
      return stream;
    } catch (error) {
      if (abort.signal.aborted || (error as Error)?.name === "AbortError") {
        if (isCurrent()) {
          this.setStatus("ready");
          this.resumable = undefined;
        }
      } else if (isCurrent()) {
        this.callbacks.onError?.(error as Error);
        this.setStatus("error", error as Error);
      }
      return undefined;
    }
  }

  private async run(
    trigger: Trigger | "resume-stream",
    body: Record<string, unknown> | undefined,
    done: Promise<void>,
  ) {
    const resuming = trigger === "resume-stream";
    if (!resuming) this.resumable = undefined;
    const abort = new AbortController();
    const resumeRequest = resuming ? { abort, done } : undefined;
    if (resumeRequest) {
      this.activeResume?.abort.abort();
      this.activeResume = resumeRequest;
    }
    const isCurrent = () => !resumeRequest || this.activeResume === resumeRequest;
    const settle = () => {
      if (this.activeResume === resumeRequest) this.activeResume = undefined;
    };
    try {
      const resumed = resuming ? await this.reconnect(abort, isCurrent) : undefined;
      if (resuming && !resumed) return;
      this.setStatus("submitted");
      const reader = await this.readerFor(abort, resumed);
      if (reader) await this.respond(trigger, body, { abort, done, resumed, reader, isCurrent });
    } finally {
      settle();
    }
  }

  /** The reply reader; undefined (the request dropped: ready, or error) when Stop came first or its fetch failed. */
  private async readerFor(abort: AbortController, resumed: ReadableStream<Uint8Array> | undefined) {
    this.preparing.add(abort);
    try {
      const reader = await loadReplyReader();
      if (!abort.signal.aborted) return reader;
      this.setStatus("ready");
    } catch (error) {
      this.callbacks.onError?.(error as Error);
      this.setStatus("error", error as Error);
    } finally {
      this.preparing.delete(abort);
    }
    await resumed?.cancel().catch(() => {});
    return undefined;
  }

  private async respond(
    trigger: Trigger | "resume-stream",
    body: Record<string, unknown> | undefined,
    request: {
      abort: AbortController;
      done: Promise<void>;
      resumed: ReadableStream<Uint8Array> | undefined;
      reader: ReplyReader;
      isCurrent: () => boolean;
    },
  ) {
    const { abort, resumed, reader, isCurrent } = request;
    const resuming = trigger === "resume-stream";
    const last = this.current.messages.at(-1);
    const state =
      resuming && this.resumable
        ? this.resumable
        : reader.streamingMessage<M>(
            resuming ? resumedFrom(last) : trigger === "regenerate-message" ? undefined : last && snapshot(last),
            generateId(),
          );
    const active: Active<M> = { state, abort, done: request.done };
    this.active = active;
    const outcome = { isAbort: false, isDisconnect: false, isError: false };
    abort.signal.addEventListener("abort", () => {
      outcome.isAbort = true;
    });
    try {
      const stream =
        resumed ??
        (await this.transport.sendMessages({
          chatId: this.id,
          messages: this.current.messages,
          trigger: trigger as Trigger,
          messageId: undefined,
          body,
          abortSignal: abort.signal,
        }));
      await this.read(reader, stream, active, resuming);
      if (isCurrent()) this.setStatus("ready");
      if (this.resumable === state) this.resumable = undefined;
    } catch (error) {
      this.failed(error, active, outcome, isCurrent);
    } finally {
      this.callbacks.onFinish?.({
        message: state.message,
        messages: this.current.messages,
        ...outcome,
        finishReason: state.finishReason,
      });
      if (this.active === active) this.active = undefined;
    }
  }

  private failed(
    error: unknown,
    active: Active<M>,
    outcome: Omit<FinishInfo<M>, "message" | "messages">,
    isCurrent: () => boolean,
  ) {
    if (outcome.isAbort || (error as Error)?.name === "AbortError") {
      outcome.isAbort = true;
      if (isCurrent()) this.setStatus("ready");
      if (isCurrent() && this.resumable === active.state) this.resumable = undefined;
      return;
    }
    if (!isCurrent()) return;
    outcome.isError = true;
    outcome.isDisconnect = isNetworkDrop(error);
    if (outcome.isDisconnect) this.resumable = active.state;
    else if (this.resumable === active.state) this.resumable = undefined;
    this.callbacks.onError?.(error as Error);
    this.setStatus("error", error as Error);
  }

  /** Applies the reply's chunks as they come, writing the message into the transcript after each change. */
  private async read(reader: ReplyReader, body: ReadableStream<Uint8Array>, active: Active<M>, resuming: boolean) {
    const chunks = new reader.ChunkReader(active.state, {
      resetOnMessageIdChange: resuming,
      // A resume replays the reply from its first chunk (the server's stream endpoint, and Continue's).
      resetOnFirstStart: resuming,
      onData: (part) => this.callbacks.onData?.(part as Parameters<ChatOnDataCallback<M>>[0]),
      onError: (error) => {
        throw error;
      },
    });
    for await (const chunk of reader.uiMessageChunks(body)) {
      if (active.abort.signal.aborted) break;
      const effect = chunks.apply(chunk);
      if (effect === "none" || active.abort.signal.aborted) continue;
      if (effect === "write" && this.current.status !== "streaming")
        this.current = { ...this.current, status: "streaming", error: undefined };
      const { messages } = this.current;
      const message = snapshot(active.state.message);
      const at = messages.findLastIndex((m) => m.id === message.id);
      this.change({ messages: at === -1 ? [...messages, message] : messages.with(at, message) });
    }
  }
}
