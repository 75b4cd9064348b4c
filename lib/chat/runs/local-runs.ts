// The replies this process is running (a subagent's too), each with a promise that settles when it ends. On PostgreSQL
// the run engine (pg-boss-engine.ts) listens: it sends each run a job on this instance's own queue and holds the job,
// heartbeating, until the run ends here. With no listener (SQLite) nothing is kept.
export type LocalRun = {
  conversationId: string;
  replyId: string;
  ended: Promise<void>;
  /** A graceful restart handed it over (saved, still streaming): another instance goes on with it. */
  handedOver?: boolean;
};

type Runs = { byReply: Map<string, LocalRun>; listener?: (run: LocalRun) => void };
const holder = globalThis as unknown as { __hintlineLocalRuns?: Runs };
holder.__hintlineLocalRuns ??= { byReply: new Map() };
const runs = holder.__hintlineLocalRuns;

/** Records a run starting here; returns what to call once it has ended (its reply stored, its lock released). */
export function runStarted(conversationId: string, replyId: string): () => void {
  if (!runs.listener) return () => {};
  let end!: () => void;
  const run: LocalRun = { conversationId, replyId, ended: new Promise<void>((resolve) => (end = resolve)) };
  runs.byReply.set(replyId, run);
  runs.listener(run);
  return () => {
    if (runs.byReply.get(replyId) === run) runs.byReply.delete(replyId);
    end();
  };
}

/** Marks the run of `replyId` as handed over at a graceful restart (lib/chat/reply/settle.ts), before it ends. */
export function runHandedOver(replyId: string): void {
  const run = runs.byReply.get(replyId);
  if (run) run.handedOver = true;
}

/** The run of `replyId`, while it runs here. */
export function localRun(replyId: string): LocalRun | undefined {
  return runs.byReply.get(replyId);
}

/** Called with every run that starts from now on (one listener: the run engine). */
export function onRunStarted(listener: (run: LocalRun) => void): void {
  runs.listener = listener;
}
