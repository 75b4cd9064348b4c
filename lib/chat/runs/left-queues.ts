// Queues left waiting by a stopped instance: a reply that ended while its instance drained delivers nothing (the
// instance takes no new work), so at start — and on PostgreSQL every lease period, for an instance that stopped for
// good — the first queued message of each such conversation becomes its next turn.
import { databaseUrl, isPostgresUrl } from "../../db/client.ts";
import { logFailure } from "../../log/logger.ts";
import { deliverLeftQueues } from "../queue-delivery.ts";
import { startReply } from "../start-reply.ts";
import { runLeaseMs } from "./lease.ts";

const holder = globalThis as unknown as { __hintlineQueueSweep?: ReturnType<typeof setInterval> };

/** Delivers the queues left now (in the background), then, on PostgreSQL, every HINTLINE_RUN_LEASE_MS. */
export function startLeftQueueSweep(): void {
  const sweep = () => void deliverLeftQueues(startReply).catch(logFailure("delivering the queues left waiting failed"));
  sweep();
  if (!isPostgresUrl(databaseUrl()) || holder.__hintlineQueueSweep) return;
  holder.__hintlineQueueSweep = setInterval(sweep, runLeaseMs());
  holder.__hintlineQueueSweep.unref?.();
}
