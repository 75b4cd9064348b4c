// GET /api/metrics: the process's metrics (lib/log/metrics.ts) in Prometheus's text format, with the live gauges set
// from this instance's state as they are served.
import { activeReplyList } from "../chat/active-replies.ts";
import { eventListenerCount } from "../chat/live/event-stream.ts";
import { metrics } from "../log/metrics.ts";

export async function metricsText(): Promise<{ body: string; contentType: string }> {
  const { registry, liveReplies, eventListeners } = metrics();
  liveReplies.set(activeReplyList().length);
  eventListeners.set(eventListenerCount());
  return { body: await registry.metrics(), contentType: registry.contentType };
}
