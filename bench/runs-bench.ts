// `npm run bench -- --only=runs`: how soon a reply goes on after its server is SIGKILLed mid-reply, on SQLite. Each
// round: a reply streams a long text (the OpenAI fake, 20 ms a chunk), the server is killed once text flows, started
// again on the same file (`npm start`'s server, migrations included), and a follower (`GET …/stream`) waits for the
// first new text. Printed: kill → server ready, ready → streaming again, kill → streaming again (goal ≤ 5 s after the
// restart). Nothing is asserted.
import { type AppServer, startApp, startFake, stopAll } from "./servers.ts";
import { median } from "./stats.ts";

const ROUNDS = 5;
const LONG = Array.from({ length: 2_000 }, (_, i) => `word${i}`).join(" ");
const log = (line: string) => console.log(`[runs] ${line}`);

/** Reads a UI message stream until a text delta arrives; resolves with when it did. */
async function firstTextDelta(response: Response): Promise<number> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the stream ended before any text");
    buffered += value;
    if (buffered.includes('"type":"text-delta"')) {
      const at = performance.now();
      await reader.cancel();
      return at;
    }
  }
}

async function main(): Promise<void> {
  const fake = await startFake();
  await fake.setReply(LONG, 20);
  const env = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "bench", HINTLINE_MODEL: "fake-model" };
  let app: AppServer = await startApp(env);
  const rows: Array<{ ready: number; streaming: number; total: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const id = `resume-${round}`;
    const response = await fetch(`${app.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id, message: { id: `m-${id}`, role: "user", parts: [{ type: "text", text: "go" }] } }),
    });
    await firstTextDelta(response);
    // Let a checkpoint hold some of it (at most a second of a reply is lost).
    await new Promise((r) => setTimeout(r, 1_200));
    const killedAt = performance.now();
    process.kill(app.pid, "SIGKILL");
    app = await startApp(env, { databaseUrl: app.databaseUrl });
    const readyAt = performance.now();
    const follower = await fetch(`${app.url}/api/conversations/${id}/stream`);
    if (follower.status !== 200) throw new Error(`no live reply to follow after the restart (HTTP ${follower.status})`);
    const streamingAt = await firstTextDelta(follower);
    rows.push({ ready: readyAt - killedAt, streaming: streamingAt - readyAt, total: streamingAt - killedAt });
    // Stopped, so that the next restart resumes only the next round's reply.
    await fetch(`${app.url}/api/conversations/${id}/stop`, { method: "POST" });
    log(
      `round ${round + 1}: kill → ready ${(readyAt - killedAt).toFixed(0)} ms, ready → streaming ${(streamingAt - readyAt).toFixed(0)} ms`,
    );
  }
  const med = (pick: (r: (typeof rows)[number]) => number) => median(rows.map(pick)).toFixed(0);
  log(`median of ${ROUNDS}: kill → ready ${med((r) => r.ready)} ms; ready → streaming again ${med((r) => r.streaming)} ms
      (goal ≤ 5,000 ms after the restart); kill → streaming again ${med((r) => r.total)} ms`);
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
