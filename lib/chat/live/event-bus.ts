// Change events: "something changed, look again" signals for every open tab. This is the in-process bus; a
// database-backed one (LISTEN/NOTIFY, several instances) implements the same interface.
import { databaseUrl, isPostgresUrl } from "../../db/client.ts";
import { type ChangeEvent, createMemoryBus, type EventBus } from "./memory-event-bus.ts";
import { createPostgresBus } from "./pg-event-bus.ts";

export type { ChangeEvent, EventBus };
export { createMemoryBus };

const holder = globalThis as unknown as { __hintlineEvents?: { url: string; bus: EventBus } };

/** The process's bus: in process on SQLite, through PostgreSQL's NOTIFY (every instance) on PostgreSQL. */
export function eventBus(): EventBus {
  const url = databaseUrl();
  if (holder.__hintlineEvents?.url !== url)
    holder.__hintlineEvents = { url, bus: isPostgresUrl(url) ? createPostgresBus() : createMemoryBus() };
  return holder.__hintlineEvents.bus;
}

export function publishChange(event: ChangeEvent): void {
  eventBus().publish(event);
}
