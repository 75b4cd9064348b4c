// The live-chunk relay: every chunk of the reply being written in a conversation, as the UI message stream's SSE
// bytes, so that any number of readers (the request that started it, a reload, another tab) can replay it from its
// first chunk and follow it to the end. This is the in-process implementation; the interface is what a
// database-backed relay (several instances) would implement.
import { maxReplyChars } from "../../env-number.ts";

export interface LiveRelay {
  /** Starts the buffer of a reply; a previous one of the conversation is replaced. */
  open(conversationId: string, replyId: string): LiveSink;
  /** The live reply's stream from its first chunk to its end, or undefined when no reply is live (or resumable). */
  follow(conversationId: string): ReadableStream<Uint8Array> | undefined;
  /** Settles when the conversation's live reply `replyId` has ended (at once when it is not live). */
  ended(conversationId: string, replyId?: string): Promise<void>;
}

export interface LiveSink {
  write(chunk: { type: string; id?: string; transient?: boolean }): void;
  /** The reply's stream is over: followers get the rest and `[DONE]`, and the buffer is released. */
  end(): void;
}

export type RelayLimits = {
  /** Bytes one reply's buffer may hold; past it the reply stops being resumable (it still runs and is stored). */
  maxBytes: number;
  /** How long a follower still behind when the reply ends may keep the buffer alive before it is dropped. */
  graceMs: number;
};

/**
 * Room for a reply at the ceiling streamed as one-token deltas (about 14 bytes of JSON per character) plus its tool
 * rows and hints; superseded transient snapshots (tasks, meter, plan) are not kept.
 */
export const defaultLimits = (): RelayLimits => ({
  maxBytes: 16 * 1024 * 1024 + 16 * maxReplyChars(),
  graceMs: 30_000,
});

const encoder = new TextEncoder();
const DONE = encoder.encode("data: [DONE]\n\n");
const EMPTY = new Uint8Array(0);
/** One read of a follower takes at most this many bytes of buffered chunks at once. */
const BATCH_BYTES = 64 * 1024;

class ReplyBuffer {
  entries: Uint8Array[] = [];
  bytes = 0;
  done = false;
  /** Too large to replay: followers stop where it stopped, new ones are refused. */
  overflowed = false;
  /** Released after the grace: followers still behind are dropped. */
  released = false;
  private waiters = new Set<() => void>();
  private snapshots = new Map<string, number>();
  /** Followers not yet closed or cancelled: while none is left after the end, nothing may read the buffer again. */
  private followers = 0;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private endedPromise: Promise<void>;
  private resolveEnded!: () => void;

  constructor(
    readonly replyId: string,
    private readonly limits: RelayLimits,
  ) {
    this.endedPromise = new Promise((resolve) => (this.resolveEnded = resolve));
  }

  get whenEnded(): Promise<void> {
    return this.endedPromise;
  }

  push(chunk: { type: string; id?: string; transient?: boolean }): void {
    if (this.done || this.overflowed) return;
    const bytes = encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`);
    // A transient snapshot replaces the previous one of its kind: a client only keeps the newest.
    if (chunk.transient && chunk.type.startsWith("data-")) {
      const key = `${chunk.type}\u0000${chunk.id ?? ""}`;
      const previous = this.snapshots.get(key);
      if (previous !== undefined) {
        this.bytes -= this.entries[previous]!.length;
        this.entries[previous] = EMPTY;
      }
      this.snapshots.set(key, this.entries.length);
    }
    if (this.bytes + bytes.length > this.limits.maxBytes) {
      this.overflowed = true;
    } else {
      this.entries.push(bytes);
      this.bytes += bytes.length;
    }
    this.wake();
  }

  finish(): void {
    if (this.done) return;
    this.done = true;
    if (!this.overflowed) this.entries.push(DONE);
    this.wake();
    this.resolveEnded();
    // Kept for the followers still behind, up to the grace; released as soon as the last one is done. A timer left
    // to run out held the buffer, and through the async context it was made in the whole request that started
    // the reply, for the grace after every reply (hundreds of requests at a few replies a second).
    if (this.followers === 0) {
      this.release();
      return;
    }
    this.graceTimer = setTimeout(() => this.release(), this.limits.graceMs);
    this.graceTimer.unref?.();
  }

  release(): void {
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.released = true;
    this.entries = [];
    this.bytes = 0;
    this.snapshots.clear();
    this.wake();
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /** A follower from the first chunk: each read takes what is buffered past its cursor (batched) or waits for more. */
  stream(): ReadableStream<Uint8Array> {
    let cursor = 0;
    let cancelled = false;
    let wake: (() => void) | undefined;
    this.followers++;
    let following = true;
    const leave = () => {
      if (!following) return;
      following = false;
      if (--this.followers === 0 && this.done) this.release();
    };
    const close = (controller: ReadableStreamDefaultController<Uint8Array>) => {
      controller.close();
      leave();
    };
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          for (;;) {
            if (cancelled) return;
            if (this.released) {
              close(controller);
              return;
            }
            if (cursor < this.entries.length) {
              const batch: Uint8Array[] = [];
              let size = 0;
              while (cursor < this.entries.length && size < BATCH_BYTES) {
                const entry = this.entries[cursor++]!;
                if (entry.length === 0) continue;
                batch.push(entry);
                size += entry.length;
              }
              if (size === 0) continue;
              controller.enqueue(batch.length === 1 ? batch[0]! : concat(batch, size));
              return;
            }
            if (this.done || this.overflowed) {
              close(controller);
              return;
            }
            await new Promise<void>((resolve) => {
              wake = resolve;
              this.waiters.add(resolve);
            });
          }
        },
        cancel: () => {
          cancelled = true;
          if (wake) {
            this.waiters.delete(wake);
            wake();
          }
          leave();
        },
      },
      // Nothing is copied ahead of the reader: a follower that does not read holds only its cursor.
      { highWaterMark: 0 },
    );
  }
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function createMemoryRelay(limits: () => RelayLimits = defaultLimits): LiveRelay {
  const live = new Map<string, ReplyBuffer>();
  return {
    open(conversationId, replyId) {
      const buffer = new ReplyBuffer(replyId, limits());
      live.get(conversationId)?.finish();
      live.set(conversationId, buffer);
      return {
        write: (chunk) => buffer.push(chunk),
        end: () => {
          buffer.finish();
          if (live.get(conversationId) === buffer) live.delete(conversationId);
        },
      };
    },
    follow(conversationId) {
      const buffer = live.get(conversationId);
      if (!buffer || buffer.overflowed) return undefined;
      return buffer.stream();
    },
    ended(conversationId, replyId) {
      const buffer = live.get(conversationId);
      if (!buffer || (replyId !== undefined && buffer.replyId !== replyId)) return Promise.resolve();
      return buffer.whenEnded;
    },
  };
}

const holder = globalThis as unknown as { __hintlineRelay?: LiveRelay };

/** The process's relay (one per server process, shared by every route bundle). */
export function liveRelay(): LiveRelay {
  holder.__hintlineRelay ??= createMemoryRelay();
  return holder.__hintlineRelay;
}
