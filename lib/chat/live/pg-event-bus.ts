// Change events across instances: published with NOTIFY hintline_events and delivered to this instance's listeners
// from its LISTEN connection (so every instance, this one included, delivers each event once).
import { listen, notify } from "../../db/pg-live.ts";
import type { ChangeEvent, EventBus } from "./event-bus.ts";
import { createMemoryBus } from "./event-bus.ts";

export function createPostgresBus(): EventBus {
  const local = createMemoryBus();
  let listening: Promise<void> | undefined;
  const setUp = () => {
    listening ??= listen("hintline_events", (payload) => local.publish(JSON.parse(payload) as ChangeEvent)).catch(() => {
      listening = undefined;
    });
    return listening;
  };
  return {
    publish(event) {
      void notify("hintline_events", JSON.stringify({ type: event.type, id: event.id })).catch(() => {});
    },
    subscribe(listener) {
      void setUp();
      return local.subscribe(listener);
    },
    ready: setUp,
  };
}
