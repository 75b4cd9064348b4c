// How long one heavy request stalls everyone else (`npm run bench -- --only=stall`): a real `next start` on a fresh
// SQLite database (or, with BENCH_DATABASE_URL=postgresql://…, on that PostgreSQL database), one client uploading
// knowledge files of awkward shapes while another polls a cheap route (GET /api/model) back to back. Prints, per
// upload: how long it took, the longest any poll waited meanwhile, and how much the database grew. Then the same for
// the branch operations on a conversation of 20,000 messages: editing its first message (every other message becomes
// an archived alternative) and switching back and forth (imported; on PostgreSQL written directly), each with the
// server's own longest event-loop delay meanwhile (from /api/metrics), after a warm-up of their routes. Then the heavy
// inputs of bench/stall-inputs.ts (hostile PDFs, large imports, a conversation holding three 8 MiB images), measured
// the same way. Asserts nothing.
//   BENCH_STALL_TIMEOUT_S (120): an upload still running after this is reported as such and the run stops there.
//   BENCH_STALL_MESSAGES (20000): the branch cases' conversation size.
//   BENCH_STALL_ONLY=uploads|branches|inputs: only those cases.
import fs from "node:fs";
import { startApp, startFake, stopAll } from "./servers.ts";
import { inputCases } from "./stall-inputs.ts";

const TIMEOUT_MS = Number(process.env.BENCH_STALL_TIMEOUT_S ?? 120) * 1000;
const MiB = 1024 * 1024;
const BRANCH_MESSAGES = Number(process.env.BENCH_STALL_MESSAGES ?? 20_000);

function csvOf(bytes: number): string {
  const rows = ["id,name,city,amount"];
  let size = rows[0]!.length;
  for (let i = 1; size < bytes; i++) {
    const row = `${i},customer ${i % 977},${["Berlin", "Lagos", "Lima", "Osaka"][i % 4]},${(i * 37) % 10_000}`;
    rows.push(row);
    size += row.length + 1;
  }
  return rows.join("\n");
}

const UPLOADS: Array<[string, string]> = [
  ["50 KB of newlines", "\n".repeat(50_000)],
  ["1 MB CSV (39k lines)", csvOf(1_000_000)],
  ["1 MiB of one long line", "word ".repeat(MiB / 5)],
  ["1 MiB of newlines", "\n".repeat(MiB)],
];

async function databaseBytes(url: string): Promise<number> {
  if (url.startsWith("file:")) {
    const file = url.slice(5);
    return [file, `${file}-wal`].reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number(
      (await client.query<{ size: string }>("SELECT pg_database_size(current_database()) AS size")).rows[0]!.size,
    );
  } finally {
    await client.end();
  }
}

/** Polls `url` back to back while `work` runs; the longest single wait (ms) and the number of polls. */
async function longestWait(url: string, work: Promise<unknown>): Promise<{ longest: number; polls: number }> {
  let done = false;
  void work.finally(() => (done = true));
  let longest = 0;
  let polls = 0;
  while (!done) {
    const start = performance.now();
    await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) })
      .then((r) => r.arrayBuffer())
      .catch(() => undefined);
    longest = Math.max(longest, performance.now() - start);
    polls++;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { longest, polls };
}

type App = Awaited<ReturnType<typeof startApp>>;

/**
 * The server's longest event-loop delay (ms) since the last call: prom-client's histogram of it (10 ms resolution),
 * which /api/metrics reports and then resets. Unlike the poll's wait, it leaves out the client and the network.
 */
async function serverLag(app: App): Promise<number> {
  const text = await (await fetch(`${app.url}/api/metrics`)).text();
  const match = /^nodejs_eventloop_lag_max_seconds\s+([\d.e+-]+)$/m.exec(text);
  return match ? Number(match[1]) * 1000 : Number.NaN;
}

/**
 * One request while GET /api/model is polled: how long it took (body read whole), the longest poll wait, the server's
 * longest event-loop delay meanwhile, the status.
 */
async function timed(
  app: App,
  request: () => Promise<Response>,
): Promise<{ took: number; longest: number; lag: number; status: number | "timeout" }> {
  await serverLag(app);
  const start = performance.now();
  const work = request().then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  });
  const { longest } = await longestWait(
    `${app.url}/api/model`,
    work.catch(() => 0),
  );
  const status = await work.catch(() => "timeout" as const);
  const took = performance.now() - start;
  return { took, longest, lag: await serverLag(app), status };
}

async function seedPostgres(
  url: string,
  id: string,
  messages: Array<{ id: string; role: string; parts: unknown }>,
): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`INSERT INTO "Conversation" ("id", "updatedAt", "messageSeq") VALUES ($1, now(), $2)`, [
      id,
      messages.length,
    ]);
    await client.query(
      `INSERT INTO "Message" ("conversationId", "id", "position", "role", "parts", "metadata", "status", "updatedAt")
       SELECT $1, m->>'id', (ord - 1)::int, m->>'role', m->'parts', '{}'::jsonb, 'complete', now() FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(m, ord)`,
      [id, JSON.stringify(messages)],
    );
  } finally {
    await client.end();
  }
}

/** A conversation of BRANCH_MESSAGES messages is imported; its first message is edited, then switched back and forth. */
async function branchCases(app: App): Promise<void> {
  const id = `stall-branches-${Date.now().toString(36)}`;
  const messages = Array.from({ length: BRANCH_MESSAGES }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 ? "assistant" : "user",
    parts: [
      { type: "text", text: `Message ${i}: ${"a sentence of ordinary length about the work at hand ".repeat(2)}` },
    ],
  }));
  const json = (method: string, body: unknown): RequestInit => ({
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (app.databaseUrl.startsWith("file:")) {
    const imported = await fetch(
      `${app.url}/api/conversations/import`,
      json("POST", { version: 1, conversation: { id, messages } }),
    );
    if (imported.status !== 201) throw new Error(`import: HTTP ${imported.status} ${await imported.text()}`);
  } else {
    // The same rows written directly: importing 20,000 messages exceeds the import's 5 s transaction on a busy PostgreSQL.
    await seedPostgres(app.databaseUrl, id, messages);
  }
  // Warm-up: each route's code is loaded by its first request (hundreds of ms), which is not what is measured here.
  const small = `${id}-warm`;
  const two = messages.slice(0, 2);
  await fetch(
    `${app.url}/api/conversations/import`,
    json("POST", { version: 1, conversation: { id: small, messages: two } }),
  );
  await (await fetch(`${app.url}/api/conversations/${small}`)).arrayBuffer();
  await (
    await fetch(
      `${app.url}/api/chat`,
      json("POST", {
        id: small,
        editOf: "m0",
        message: { id: "w0", role: "user", parts: [{ type: "text", text: "edited" }] },
      }),
    )
  ).arrayBuffer();
  await (
    await fetch(`${app.url}/api/conversations/${small}/branches`, json("POST", { anchorId: "", ordinal: 1 }))
  ).arrayBuffer();
  const n = BRANCH_MESSAGES.toLocaleString("en");
  const cases: Array<[string, () => Promise<Response>]> = [
    // The reference: a switch answers the whole conversation, which is read (and sent) like this.
    [
      `open the conversation (GET, ${n} messages)`,
      () => fetch(`${app.url}/api/conversations/${id}`, { signal: AbortSignal.timeout(TIMEOUT_MS) }),
    ],
    [
      `edit the first of ${n} messages (archives ${n})`,
      () =>
        fetch(
          `${app.url}/api/chat`,
          json("POST", {
            id,
            editOf: "m0",
            message: { id: "e0", role: "user", parts: [{ type: "text", text: "edited" }] },
          }),
        ),
    ],
    [
      `switch back (restores ${n}, archives 2)`,
      () => fetch(`${app.url}/api/conversations/${id}/branches`, json("POST", { anchorId: "", ordinal: 1 })),
    ],
    [
      `switch again (archives ${n}, restores 2)`,
      () => fetch(`${app.url}/api/conversations/${id}/branches`, json("POST", { anchorId: "", ordinal: 2 })),
    ],
  ];
  for (const [name, request] of cases) {
    const before = await databaseBytes(app.databaseUrl);
    const { took, longest, lag, status } = await timed(app, request);
    if (status === "timeout") {
      console.log(`| ${name} | > ${TIMEOUT_MS / 1000} s (still running; stopped) | > ${TIMEOUT_MS / 1000} s | – | – |`);
      return;
    }
    const growth = (await databaseBytes(app.databaseUrl)) - before;
    console.log(
      `| ${name} (HTTP ${status}) | ${(took / 1000).toFixed(2)} s | ${longest.toFixed(0)} ms | ${lag.toFixed(0)} ms | ${(growth / MiB).toFixed(1)} MiB |`,
    );
  }
}

async function main(): Promise<void> {
  const shared = process.env.BENCH_DATABASE_URL;
  const fake = await startFake();
  await fake.setReply("A short reply.");
  // The fake's model takes images, for the conversation holding three of 8 MiB.
  const env = {
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: "bench",
    HINTLINE_MODEL: "fake-model",
    HINTLINE_CONTEXT_WINDOW: "128000",
    HINTLINE_IMAGE_MODELS: "fake-model",
  };
  const app = await startApp(env, shared ? { databaseUrl: shared } : {});
  const dbUrl = app.databaseUrl;
  console.log(
    `\n### Stalls (${shared ? "PostgreSQL" : "SQLite"}): one upload at a time, GET /api/model polled meanwhile\n`,
  );
  console.log("| upload | took | longest poll wait | database growth |\n| --- | --- | --- | --- |");
  // Warm-up: the first request of each kind loads code.
  await fetch(`${app.url}/api/workspaces/default/knowledge/warm.txt`, {
    method: "PUT",
    headers: { "content-type": "text/plain" },
    body: "warm up",
  });
  // The machine's own noise: the longest wait over 3 s with nothing else running.
  await serverLag(app);
  const idle = await longestWait(`${app.url}/api/model`, new Promise((resolve) => setTimeout(resolve, 3_000)));
  const idleLag = await serverLag(app);
  console.log(`| nothing (3 s idle, the baseline) | – | ${idle.longest.toFixed(0)} ms | – |`);
  const only = process.env.BENCH_STALL_ONLY;
  for (const [i, [name, body]] of (only && only !== "uploads" ? [] : UPLOADS).entries()) {
    const before = await databaseBytes(dbUrl);
    const start = performance.now();
    const upload = fetch(`${app.url}/api/workspaces/default/knowledge/bench-${i}.txt`, {
      method: "PUT",
      headers: { "content-type": "text/plain" },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }).then((r) => r.status);
    const { longest } = await longestWait(
      `${app.url}/api/model`,
      upload.catch(() => 0),
    );
    const status = await upload.catch(() => "timeout");
    const took = performance.now() - start;
    if (status === "timeout") {
      console.log(`| ${name} | > ${TIMEOUT_MS / 1000} s (still running; stopped) | > ${TIMEOUT_MS / 1000} s | – |`);
      break;
    }
    const growth = (await databaseBytes(dbUrl)) - before;
    console.log(
      `| ${name} (HTTP ${status}) | ${(took / 1000).toFixed(2)} s | ${longest.toFixed(0)} ms | ${(growth / MiB).toFixed(1)} MiB |`,
    );
  }
  if (!only || only === "branches") {
    console.log(
      `\n| branch operation (whole response read) | took | longest poll wait | server's longest event-loop delay | database growth |\n| --- | --- | --- | --- | --- |`,
    );
    console.log(
      `| nothing (3 s idle, the baseline) | – | ${idle.longest.toFixed(0)} ms | ${idleLag.toFixed(0)} ms | – |`,
    );
    await branchCases(app);
  }
  if (!only || only === "inputs") {
    console.log(
      `\nIdle baseline: longest poll wait ${idle.longest.toFixed(0)} ms, server's longest event-loop delay ${idleLag.toFixed(0)} ms.`,
    );
    await inputCases(app.url, fake, (request) => timed(app, request));
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
