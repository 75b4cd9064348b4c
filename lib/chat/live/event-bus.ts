// Change events: "something changed, look again" signals for every open tab. This is the in-process bus; a
// database-backed one (LISTEN/NOTIFY, several instances) implements the same interface.
import { databaseUrl, isPostgresUrl } from "../../db/client.ts";
import { createPostgresBus } from "./pg-event-bus.ts";
import { logFailure } from "../../ops/logger.ts";

export type ChangeEvent = { type: "conversation" | "conversations" | "tasks" | "workspace"; id: string };

export interface EventBus {
  publish(event: ChangeEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (event: ChangeEvent) => void): () => void;
  /** Settles once a new subscriber would receive the next event (a bus over the network connects first). */
  ready?(): Promise<void>;
}

export function createMemoryBus(): EventBus {
  const listeners = new Set<(event: ChangeEvent) => void>();
  return {
    publish(event) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          // one listener's failure is not the publisher's
          logFailure("a change-event listener failed", { event: event.type })(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const holder = globalThis as unknown as { __hintlineEvents?: { url: string; bus: EventBus } };

/** The process's bus: in process on SQLite, through PostgreSQL's NOTIFY (every instance) on PostgreSQL. */
export function eventBus(): EventBus {
  const url = databaseUrl();
  if (holder.__hintlineEvents?.url !== url) holder.__hintlineEvents = { url, bus: isPostgresUrl(url) ? createPostgresBus() : createMemoryBus() };
  return holder.__hintlineEvents.bus;
}

export function publishChange(event: ChangeEvent): void {
  eventBus().publish(event);
}
