// pg-boss beside Hintline's own Prisma client (lib/db/client.ts): can it run over Prisma (no pool of its own), and
// does a job sent inside a Prisma transaction exist only if that transaction commits? Run with tsx from the
// repository: `npx tsx bench/engine-spike/prisma-fit.mts`.
import { databaseUrl, engineImport, sleep, withDatabase } from "./common.mjs";

const { PgBoss } = await engineImport("pgboss/node_modules/pg-boss/dist/index.js");
const { fromPrisma } = await engineImport("pgboss/node_modules/pg-boss/dist/adapters/index.js");
const report: Record<string, unknown> = {};
const name = `spike_prisma_${process.pid}`;
await withDatabase(name, async (url, admin) => {
  process.env.DATABASE_URL = url;
  const { getDb } = await import("../../lib/db/client.ts");
  const prisma = await getDb();
  const overPrisma = new PgBoss({ db: fromPrisma(prisma) });
  overPrisma.on("error", () => {});
  report.startOverPrisma = await overPrisma.start().then(
    () => "ok",
    (error: Error) => error.message.split("\n").filter(Boolean).at(-1)?.slice(0, 160),
  );
  await overPrisma.stop({ graceful: false }).catch(() => {});
  const boss = new PgBoss({ connectionString: databaseUrl(name), max: 2 });
  boss.on("error", () => {});
  await boss.start();
  await boss.createQueue("run");
  const kept = await prisma.$transaction(async (tx) => boss.send("run", { runId: "kept" }, { db: fromPrisma(tx) }));
  let rolledBack: string | null = null;
  await prisma
    .$transaction(async (tx) => {
      rolledBack = await boss.send("run", { runId: "gone" }, { db: fromPrisma(tx) });
      throw new Error("roll back");
    })
    .catch(() => {});
  report.committedJobExists = !!(await boss.getJobById("run", kept!));
  report.rolledBackJobExists = !!(await boss.getJobById("run", rolledBack!));
  const worked: string[] = [];
  await boss.work("run", { pollingIntervalSeconds: 0.5 }, async ([job]: { data: { runId: string } }[]) => {
    worked.push(job!.data.runId);
  });
  await sleep(2500);
  report.worked = worked;
  const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [name]);
  report.connections = rows[0].n;
  await boss.stop({ graceful: false });
  await prisma.$disconnect();
});
console.log(JSON.stringify(report));
process.exit(0);
