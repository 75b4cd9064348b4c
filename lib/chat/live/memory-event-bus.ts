// The in-process change-event bus, and the interface every bus implements (lib/chat/live/event-bus.ts picks one).
import { logFailure } from "../../log/logger.ts";

/**
 * "agents": a subagent of conversation `id` started or ended (the side panel lists them). `owner`: the user whose
 * conversation it is, when the publisher knows (accounts mode; lib/chat/live/event-access.ts looks it up otherwise).
 */
export type ChangeEvent = {
  type: "conversation" | "conversations" | "tasks" | "workspace" | "agents";
  id: string;
  owner?: string;
};

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
