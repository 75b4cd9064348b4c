// GET /api/events: the change events as server-sent events, one `data: {"type","id"}` line each, with keep-alive
// comments. Each listener has a bounded queue: one that stops reading is dropped (its stream ends) rather than
// growing the server's memory; the browser's EventSource reconnects by itself.
import type { Viewer } from "../../auth/viewer.ts";
import { logFailure } from "../../log/logger.ts";
import { eventAccess } from "./event-access.ts";
import { type ChangeEvent, type EventBus, eventBus } from "./event-bus.ts";

export const EVENTS_QUEUE_LIMIT = 256;
const KEEP_ALIVE_MS = 15_000;
const encoder = new TextEncoder();

// Every open stream of this process with the user it is for (accounts mode), so that metrics can count them, a
// shutting-down server can close them (the browsers' EventSource then reconnects, to another instance behind a load
// balancer), and a disabled user's are closed at once (their EventSource's reconnect is refused).
const holder = globalThis as unknown as { __hintlineEventStreamsByUser?: Map<() => void, string | undefined> };
holder.__hintlineEventStreamsByUser ??= new Map();
const open = holder.__hintlineEventStreamsByUser;

export function eventListenerCount(): number {
  return open.size;
}

/** Ends every open event stream of this process. */
export function closeEventStreams(): void {
  for (const close of [...open.keys()]) close();
}

/** Ends this process's event streams of one user. */
export function closeEventStreamsOf(userId: string): void {
  for (const [close, user] of [...open]) if (user === userId) close();
}

export function eventStream({
  bus = eventBus(),
  queueLimit = EVENTS_QUEUE_LIMIT,
  keepAliveMs = KEEP_ALIVE_MS,
  signal,
  accept,
  userId,
}: {
  bus?: EventBus;
  queueLimit?: number;
  keepAliveMs?: number;
  signal?: AbortSignal;
  /** Which events this listener may see (accounts mode: lib/chat/live/event-access.ts); absent: all. */
  accept?: (event: ChangeEvent) => Promise<boolean>;
  /** The signed-in user it is for (accounts mode). */
  userId?: string;
} = {}): ReadableStream<Uint8Array> {
  let stop = () => {};
  return new ReadableStream<Uint8Array>(
    {
      async start(controller) {
        await bus.ready?.();
        let closed = false;
        const close = () => {
          stop();
          try {
            controller.close();
          } catch {
            // already closed
          }
        };
        const send = (text: string) => {
          if (closed) return;
          // desiredSize counts what is queued and not yet read: past the limit the listener is dropped.
          if ((controller.desiredSize ?? 0) <= 0) return close();
          controller.enqueue(encoder.encode(text));
        };
        const line = (event: ChangeEvent) => `data: ${JSON.stringify({ type: event.type, id: event.id })}\n\n`;
        // Checked events keep their order: each waits for the one before it.
        let checked = Promise.resolve();
        const unsubscribe = bus.subscribe((event: ChangeEvent) => {
          if (!accept) return send(line(event));
          checked = checked
            .then(() => accept(event))
            .then(
              (allowed) => {
                if (allowed) send(line(event));
              },
              logFailure("checking whose change event it is failed; the event was not sent", { type: event.type }),
            );
        });
        const timer = setInterval(() => send(": keep-alive\n\n"), keepAliveMs);
        timer.unref?.();
        open.set(close, userId);
        stop = () => {
          closed = true;
          open.delete(close);
          unsubscribe();
          clearInterval(timer);
          signal?.removeEventListener("abort", stop);
        };
        signal?.addEventListener("abort", stop, { once: true });
        // Tells the client the stream is open (and flushes the headers through any proxy).
        send(": connected\n\n");
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: queueLimit },
  );
}

export function eventsResponse(viewer: Viewer, signal?: AbortSignal): Response {
  const userId = viewer.kind === "user" ? viewer.userId : undefined;
  return new Response(eventStream({ signal, accept: eventAccess(viewer), userId }), {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
