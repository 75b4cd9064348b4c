// Runs on PostgreSQL, on pg-boss (docs/architecture.md, "Durable runs"): the one importer of pg-boss. Every reply
// started here (a person's or a subagent's) gets a job on this instance's own queue, `runs.<instance>`, which this
// instance claims at once and holds, heartbeating, until the reply ends here. When an instance dies its jobs'
// heartbeats stop: pg-boss fails them into the shared `runs-recover` queue (retryLimit 0, deadLetter), which every
// instance polls each second, and the instance that takes one adopts the reply (its lease row, before it runs out),
// resumes it from its last finished step and holds a fresh job for it on its own queue. The queues of instances that
// are gone are swept.
import type { Job, JobAttempt, PgBoss } from "pg-boss";
import { databaseUrl, isPostgresUrl } from "../../db/client.ts";
import { isStreamingReply } from "../../db/messages.ts";
import { log, logFailure } from "../../log/logger.ts";
import { isDraining } from "../draining.ts";
import { dropMirroredRows } from "../live/pg-relay.ts";
import { INSTANCE_ID, replyLock } from "../live/reply-lock.ts";
import { runLeaseMs, runTimings } from "./lease.ts";
import { type LocalRun, localRun, onRunStarted, runStarted } from "./local-runs.ts";
import { resumeHeld } from "./resume-reply.ts";

export const RECOVER_QUEUE = "runs-recover";

type RunJob = { conversationId: string; replyId: string };

/** pg-boss keeps a pool of its own: it cannot run over Prisma's adapter. Two, beside Prisma's. */
const POOL_MAX = 2;
/** A run's job is only a liveness token: a reply's own ceilings end it long before a day. */
const JOB_EXPIRY_SECONDS = 24 * 60 * 60;
/** The jobs one claim takes from this instance's queue (the replies started here since the last claim). */
const CLAIM_BATCH = 100;
/** How often an instance looks for the queues of instances that are gone. */
const SWEEP_MS = 5_000;
const QUEUE_PREFIX = "runs.";

type Engine = { boss: PgBoss; queue: string; held: Map<string, JobAttempt> };

const holder = globalThis as unknown as { __hintlineRunEngine?: Promise<Engine | undefined> };

/**
 * Starts the engine on PostgreSQL (once per process; called from instrumentation.ts before requests are answered).
 * Resolves once this instance's replies are durable; on SQLite it does nothing (resume-replies.ts resumes there).
 */
export function startRunEngine(): Promise<Engine | undefined> {
  holder.__hintlineRunEngine ??= isPostgresUrl(databaseUrl()) ? start() : Promise.resolve(undefined);
  return holder.__hintlineRunEngine;
}

async function start(): Promise<Engine> {
  // Loaded on PostgreSQL only, on first use: a server on SQLite never imports it.
  const { PgBoss } = await import("pg-boss");
  const leaseMs = runLeaseMs();
  const { heartbeatSeconds, refreshMs } = runTimings(leaseMs);
  const boss = new PgBoss({
    connectionString: databaseUrl(),
    max: POOL_MAX,
    application_name: "hintline-runs",
    superviseIntervalSeconds: 1,
    monitorIntervalSeconds: 1,
    // The registry names each instance as its queue does: sweepQuietQueues tells a dead instance's queue by it.
    instanceName: INSTANCE_ID,
    instanceHeartbeatSeconds: Math.max(1, Math.floor(leaseMs / 3000)),
    schedule: false,
  });
  boss.on("error", logFailure("the run engine (pg-boss) failed a task; it tries again"));
  await boss.start();
  const queue = `${QUEUE_PREFIX}${INSTANCE_ID}`;
  // A take-over that fails (the database away a moment) is tried again; while this instance drains it is left to others.
  await boss.createQueue(RECOVER_QUEUE, { retryLimit: 20, retryDelay: 1 });
  await boss.createQueue(queue, {
    heartbeatSeconds,
    retryLimit: 0,
    deadLetter: RECOVER_QUEUE,
    expireInSeconds: JOB_EXPIRY_SECONDS,
  });
  const engine: Engine = { boss, queue, held: new Map() };
  onRunStarted((run) => void hold(engine, run).catch(logFailure("holding a run's job failed", { ...runOf(run) })));
  // Nothing NOTIFYs a dead-lettered job: the recover queue is polled every second.
  await boss.work<RunJob>(RECOVER_QUEUE, { pollingIntervalSeconds: 1 }, async ([job]) => {
    if (job) await takeOver(job.data);
  });
  const beat = setInterval(
    () => void refresh(engine).catch(logFailure("refreshing the runs' heartbeats failed")),
    refreshMs,
  );
  beat.unref?.();
  const sweep = setInterval(
    () => void sweepQuietQueues(engine).catch(logFailure("sweeping the run queues of instances that are gone failed")),
    SWEEP_MS,
  );
  sweep.unref?.();
  log().info({ queue, heartbeatSeconds }, "the run engine is started");
  return engine;
}

const runOf = ({ conversationId, replyId }: RunJob) => ({ conversationId, replyId });

/** Sends the run's job to this instance's queue and claims it (with any other job waiting there). */
async function hold(engine: Engine, run: LocalRun): Promise<void> {
  await engine.boss.send(engine.queue, runOf(run));
  await claim(engine);
}

/** Claims the jobs waiting on this instance's queue: each is held until its run ends here, or completed at once. */
async function claim({ boss, queue, held }: Engine): Promise<void> {
  const jobs: Job<RunJob>[] = await boss.fetch<RunJob>(queue, { batchSize: CLAIM_BATCH });
  for (const job of jobs) {
    const attempt = { id: job.id, retryCount: job.retryCount };
    const run = localRun(job.data.replyId);
    const complete = () =>
      boss.complete(queue, attempt).catch(logFailure("completing a run's job failed", { ...runOf(job.data) }));
    if (!run) {
      await complete(); // it ended already
      continue;
    }
    held.set(job.id, attempt);
    void run.ended.then(() => {
      held.delete(job.id);
      // Handed over at a graceful restart: failed into the recovery queue, where another instance takes it at once.
      if (!run.handedOver) return pending(complete());
      return pending(
        boss
          .fail(queue, attempt, { handedOver: true })
          .catch(logFailure("handing a run over failed; its heartbeat runs out instead", { ...runOf(job.data) })),
      );
    });
  }
}

// What the engine still has to tell pg-boss about runs that ended here (completed, or failed to be handed over).
const unsettled = new Set<Promise<unknown>>();
function pending<T>(work: Promise<T>): Promise<T> {
  unsettled.add(work);
  void work.finally(() => unsettled.delete(work));
  return work;
}

/**
 * A draining instance takes no more runs over: its recovery worker stops polling, so that a run it hands over (or any
 * other) is never fetched by a process about to exit — a job fetched and left active would wait for its expiry.
 */
export async function stopTakingOver(): Promise<void> {
  const engine = await holder.__hintlineRunEngine?.catch(() => undefined);
  await engine?.boss.offWork(RECOVER_QUEUE, { wait: true });
}

/** Resolves once every ended run's job is completed or handed over (a draining instance waits for it before exiting). */
export async function runEngineSettled(): Promise<void> {
  while (unsettled.size) await Promise.allSettled([...unsettled]);
}

/** Keeps the held jobs' heartbeats fresh, and claims any job a failed claim left waiting. */
async function refresh(engine: Engine): Promise<void> {
  const attempts = [...engine.held.values()];
  if (attempts.length) await engine.boss.touch(engine.queue, attempts);
  await claim(engine);
}

/**
 * A run whose instance stopped heartbeating: adopted here unless the conversation went on without it (its reply is
 * no longer the live one), and resumed from its last finished step. The adopted run gets a fresh job on this
 * instance's queue, so that it is taken over again should this instance die too.
 */
async function takeOver(job: RunJob): Promise<void> {
  const { conversationId, replyId } = job;
  if (isDraining()) throw new Error("this instance is shutting down: another takes the run over");
  if (localRun(replyId)) return;
  if (!(await isStreamingReply({ conversationId, id: replyId }))) return; // it ended, or was settled
  const controller = await replyLock().adopt(conversationId, replyId);
  if (!controller) {
    log().info(runOf(job), "a run whose instance died was not taken over: its conversation went on without it");
    return;
  }
  log().info(runOf(job), "taking over a run whose instance stopped heartbeating");
  await dropMirroredRows(replyId).catch(logFailure("dropping a dead instance's mirrored rows failed", runOf(job)));
  const ended = runStarted(conversationId, replyId);
  void resumeHeld({ conversationId, replyId, controller, ended }, "instance-lost");
}

/**
 * The queues of instances pg-boss's registry no longer counts live (killed, or stopped): a job still waiting in one
 * (sent, but its instance died before claiming it) is handed to `runs-recover`, and an empty queue is deleted, so that
 * restarts do not pile up queues for pg-boss's supervisor to visit. A queue with a held job is left until pg-boss has
 * failed that job into `runs-recover` by its heartbeat.
 */
async function sweepQuietQueues({ boss, queue: own }: Engine): Promise<void> {
  const live = new Set((await boss.getInstances()).filter((instance) => instance.live).map(({ name }) => name));
  for (const found of await boss.getQueues()) {
    const { name } = found;
    if (!name.startsWith(QUEUE_PREFIX) || name === own || live.has(name.slice(QUEUE_PREFIX.length))) continue;
    if (found.activeCount > 0) continue;
    const waiting = await boss.fetch<RunJob>(name, { batchSize: CLAIM_BATCH });
    for (const job of waiting) {
      await boss.send(RECOVER_QUEUE, runOf(job.data));
      await boss.complete(name, { id: job.id, retryCount: job.retryCount });
    }
    if (waiting.length > 0)
      log().info({ queue: name, runs: waiting.length }, "runs an instance never claimed are recovered");
    else if (found.queuedCount === 0) await boss.deleteQueue(name);
  }
}
