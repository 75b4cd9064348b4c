// Change events across instances: published with NOTIFY hintline_events and delivered to this instance's listeners
// from its LISTEN connection (so every instance, this one included, delivers each event once).
import { listen, notify } from "../../db/pg-live.ts";
import { type ChangeEvent, createMemoryBus, type EventBus } from "./memory-event-bus.ts";
import { logFailure } from "../../log/logger.ts";

export function createPostgresBus(): EventBus {
  const local = createMemoryBus();
  let listening: Promise<void> | undefined;
  const setUp = () => {
    listening ??= listen("hintline_events", (payload) => local.publish(JSON.parse(payload) as ChangeEvent)).catch(
      (error) => {
        logFailure("listening for change events failed; the next subscriber tries again")(error);
        listening = undefined;
      },
    );
    return listening;
  };
  return {
    publish(event) {
      void notify("hintline_events", JSON.stringify({ type: event.type, id: event.id })).catch(
        logFailure("publishing a change event failed", { event: event.type }),
      );
    },
    subscribe(listener) {
      void setUp();
      return local.subscribe(listener);
    },
    ready: setUp,
  };
}
