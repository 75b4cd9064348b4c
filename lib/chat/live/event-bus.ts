// Change events: "something changed, look again" signals for every open tab. This is the in-process bus; a
// database-backed one (LISTEN/NOTIFY, several instances) implements the same interface.
export type ChangeEvent = { type: "conversation" | "conversations" | "tasks" | "workspace"; id: string };

export interface EventBus {
  publish(event: ChangeEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (event: ChangeEvent) => void): () => void;
}

export function createMemoryBus(): EventBus {
  const listeners = new Set<(event: ChangeEvent) => void>();
  return {
    publish(event) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch {
          // one listener's failure is not the publisher's
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const holder = globalThis as unknown as { __hintlineEvents?: EventBus };

export function eventBus(): EventBus {
  holder.__hintlineEvents ??= createMemoryBus();
  return holder.__hintlineEvents;
}

export function publishChange(event: ChangeEvent): void {
  eventBus().publish(event);
}
