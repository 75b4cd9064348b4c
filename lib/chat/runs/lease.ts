// How long a run's instance may go silent before another instance takes its runs over (PostgreSQL). One setting,
// HINTLINE_RUN_LEASE_MS, gives pg-boss's job heartbeat and the reply lock's lease row; the row is made to outlast
// the take-over, so that a reply whose instance died is adopted (pg-boss's missed heartbeat is the proof of death)
// before the row runs out and the stale-settling paths could store it as incomplete.
import { envNumber } from "../../env-number.ts";

export const DEFAULT_RUN_LEASE_MS = 15_000;

/** pg-boss refuses a job heartbeat under 10 s. */
export const MIN_HEARTBEAT_SECONDS = 10;

/**
 * From a heartbeat gone stale to the job in another instance's hands: pg-boss's monitor (every 1 s), the recover
 * queue's poll (every 1 s), the adoption's own queries, and room for a loaded machine.
 */
export const TAKE_OVER_SLACK_MS = 5_000;

/** HINTLINE_RUN_LEASE_MS, read as HINTLINE_REPLY_LEASE_MS (its old name) when unset; default 15 s, at least 0.5 s. */
export function runLeaseMs(): number {
  const old = envNumber("HINTLINE_REPLY_LEASE_MS", DEFAULT_RUN_LEASE_MS);
  return Math.max(500, envNumber("HINTLINE_RUN_LEASE_MS", old));
}

export type RunTimings = {
  /** A run's job fails into `runs-recover` once its heartbeat is this old. */
  heartbeatSeconds: number;
  /** How often this instance refreshes its jobs' heartbeats. */
  refreshMs: number;
  /** The reply lock's lease row: how long it lasts unrenewed. */
  lockMs: number;
  /** How often the lease rows are renewed. */
  renewMs: number;
};

/**
 * The lease mapped onto pg-boss and the lock. A job is failed at most `heartbeatSeconds` (+ the monitor's second)
 * after its instance died, and taken from `runs-recover` a second later; the lease row, renewed every `renewMs`, is
 * still live at least `lockMs - renewMs` after the death, which is `heartbeatSeconds` + the slack.
 */
export function runTimings(leaseMs: number): RunTimings {
  const heartbeatSeconds = Math.max(MIN_HEARTBEAT_SECONDS, Math.ceil(leaseMs / 1000));
  const renewMs = Math.round(leaseMs / 3);
  return {
    heartbeatSeconds,
    refreshMs: (heartbeatSeconds * 1000) / 2,
    lockMs: heartbeatSeconds * 1000 + renewMs + TAKE_OVER_SLACK_MS,
    renewMs,
  };
}
