// What several instances cost one PostgreSQL while a load runs (bench/live-bench.ts, BENCH_LIVE_ONLY=scale): NOTIFY
// traffic (a LISTEN client on every channel Hintline uses), connections per instance (pg_stat_activity by
// application_name, sampled), rows written per table and transactions (pg_stat_user_tables, pg_stat_database), and the
// CPU time of the PostgreSQL processes and of each instance (/proc/<pid>/stat).
import fs from "node:fs";
import pg from "pg";

/** Every channel lib/ NOTIFYs on (lib/chat/live/pg-relay.ts, reply-lock.ts, pg-event-bus.ts). */
export const CHANNELS = ["hintline_chunks", "hintline_follow", "hintline_stop", "hintline_events"] as const;

const TICKS = 100; // USER_HZ on Linux

/** CPU seconds (user + system) a process and its children that were waited for have used. */
function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime, stime, cutime, cstime are fields 14–17 (1-based); after "pid (comm) " the state is index 0.
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / TICKS;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server's processes: the postmaster (from the data directory's postmaster.pid) and its children. */
function postgresPids(postmasterPid: number | undefined): number[] {
  if (!postmasterPid) return [];
  const pids = [postmasterPid];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      if (ppid === postmasterPid) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export type Traffic = {
  notifications: Record<string, { count: number; bytes: number }>;
  /** Most connections seen at once, per application_name. */
  connections: Record<string, number>;
  inserted: Record<string, number>;
  deleted: Record<string, number>;
  commits: number;
  postgresCpuSeconds: number;
  instanceCpuSeconds: number[];
};

type Counters = {
  tables: Map<string, { ins: number; del: number }>;
  commits: number;
  pgCpu: number;
  instanceCpu: number[];
};

/** Starts listening and sampling on `databaseUrl`; `stop()` returns what happened since. */
export async function watchTraffic(
  databaseUrl: string,
  instancePids: readonly number[],
): Promise<{ stop: () => Promise<Traffic> }> {
  const listener = new pg.Client({ connectionString: databaseUrl, application_name: "bench-listener" });
  const sampler = new pg.Client({ connectionString: databaseUrl, application_name: "bench-sampler" });
  await Promise.all([listener.connect(), sampler.connect()]);
  // The sampler's own backend is a child of the postmaster (PostgreSQL runs on this machine here).
  const backend = Number((await sampler.query<{ pid: string }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid);
  const postmaster = Number(fs.readFileSync(`/proc/${backend}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
  const pgPids = () => postgresPids(postmaster);
  const notifications: Traffic["notifications"] = Object.fromEntries(CHANNELS.map((c) => [c, { count: 0, bytes: 0 }]));
  listener.on("notification", (message) => {
    const entry = notifications[message.channel];
    if (!entry) return;
    entry.count++;
    entry.bytes += Buffer.byteLength(message.payload ?? "");
  });
  for (const channel of CHANNELS) await listener.query(`LISTEN "${channel}"`);

  const read = async (): Promise<Counters> => {
    const tables = await sampler.query<{ relname: string; ins: string; del: string }>(
      "SELECT relname, n_tup_ins AS ins, n_tup_del AS del FROM pg_stat_user_tables",
    );
    const db = await sampler.query<{ commits: string }>(
      "SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()",
    );
    return {
      tables: new Map(tables.rows.map((r) => [r.relname, { ins: Number(r.ins), del: Number(r.del) }])),
      commits: Number(db.rows[0]?.commits ?? 0),
      pgCpu: pgPids().reduce((sum, pid) => sum + cpuSeconds(pid), 0),
      instanceCpu: instancePids.map(cpuSeconds),
    };
  };
  // Statistics reach the views when a backend reports them (at most every second, or at its transaction's end).
  await sampler.query("SELECT pg_stat_force_next_flush()").catch(() => {});
  const before = await read();
  const connections: Record<string, number> = {};
  let sampling = true;
  const sampleLoop = (async () => {
    while (sampling) {
      const rows = await sampler.query<{ app: string; n: string }>(
        "SELECT application_name AS app, count(*) AS n FROM pg_stat_activity WHERE datname = current_database() GROUP BY application_name",
      );
      for (const r of rows.rows) connections[r.app] = Math.max(connections[r.app] ?? 0, Number(r.n));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  return {
    stop: async () => {
      sampling = false;
      await sampleLoop;
      await new Promise((r) => setTimeout(r, 1_200)); // the backends' statistics flush (every second when idle)
      const after = await read();
      await Promise.all([listener.end(), sampler.end()]);
      const inserted: Record<string, number> = {};
      const deleted: Record<string, number> = {};
      for (const [name, now] of after.tables) {
        const was = before.tables.get(name) ?? { ins: 0, del: 0 };
        if (now.ins - was.ins) inserted[name] = now.ins - was.ins;
        if (now.del - was.del) deleted[name] = now.del - was.del;
      }
      return {
        notifications,
        connections,
        inserted,
        deleted,
        commits: after.commits - before.commits,
        postgresCpuSeconds: after.pgCpu - before.pgCpu,
        instanceCpuSeconds: after.instanceCpu.map((cpu, i) => cpu - before.instanceCpu[i]!),
      };
    },
  };
}
