// The cache-break detector's baseline (the previous call's input, as hashes) lives in the database: the first call
// after a restart, or on another instance, is compared with the conversation's last call, not only recorded. Through
// real servers and the OpenAI fake: a restart on SQLite and PostgreSQL, and two instances on one PostgreSQL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { createPostgresDatabase, migrate } from "../support/db-global-setup.ts";
import { getJson, readChunks } from "../support/chat-client.ts";
import { type OpenAIFake, startOpenAIFake } from "../support/openai-fake.ts";
import { databaseKinds, jsonRequest, userMessage } from "./helpers.ts";

type Break = { call: number; firstChangedMessage: number | null; changed: string; cause: string };

let seq = 0;
async function turn(server: AppServer, fake: OpenAIFake, id: string, text: string): Promise<void> {
  fake.enqueue({ text: `Noted: ${text}.` });
  const response = await fetch(
    `${server.url}/api/chat`,
    jsonRequest("POST", { id, message: userMessage(`m-${id}-${seq++}`, text), timezone: "Europe/Berlin" }),
  );
  expect(response.status).toBe(200);
  await readChunks(response);
}
const breaks = async (server: AppServer, id: string) =>
  (
    await getJson<{ cache: { breaks: Break[] } }>(`${server.url}/api/conversations/${id}/context`)
  ).body.cache.breaks.map(({ call, firstChangedMessage, changed, cause }) => ({
    call,
    firstChangedMessage,
    changed,
    cause,
  }));
const patch = (server: AppServer, id: string, settings: unknown) =>
  fetch(`${server.url}/api/conversations/${id}`, jsonRequest("PATCH", { settings }));

describe.each(databaseKinds("cache_baseline"))(
  "$name: the cache-break baseline survives a restart",
  ({ databaseUrl }) => {
    let fake: OpenAIFake;
    let server: AppServer | undefined;
    let url = "";
    beforeAll(async () => {
      fake = await startOpenAIFake();
      url =
        (await databaseUrl()) ??
        `file:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hintline-baseline-")), "app.db")}`;
      if (url.startsWith("file:")) migrate(url);
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
      await fake?.close();
    });
    const start = async () => {
      await server?.stop();
      server = await startAppServer({ databaseUrl: url, env: providerEnv(fake.url) });
      return server;
    };

    it("compares the first call after a restart: an unchanged conversation is no break, a prompt or settings edit is named", async () => {
      const id = `baseline-${Date.now().toString(36)}`;
      await turn(await start(), fake, id, "one");
      await turn(await start(), fake, id, "two");
      // Restarted, nothing changed: the call extends the last one.
      expect(await breaks(server!, id)).toEqual([]);
      expect((await patch(server!, id, { prompt: { instructions: "Answer briefly." } })).status).toBe(200);
      await turn(await start(), fake, id, "three");
      expect(await breaks(server!, id)).toEqual([
        { call: 3, firstChangedMessage: null, changed: "system", cause: "prompt-edit" },
      ]);
      expect((await patch(server!, id, { injection: { timestamps: true } })).status).toBe(200);
      await turn(await start(), fake, id, "four");
      expect(await breaks(server!, id)).toEqual([
        { call: 3, firstChangedMessage: null, changed: "system", cause: "prompt-edit" },
        { call: 4, firstChangedMessage: 0, changed: "messages", cause: "settings-edit" },
      ]);
    }, 240_000);
  },
);

const postgres = process.env.TEST_POSTGRES_URL;

describe.skipIf(!postgres)("the cache-break baseline is shared by two instances on one PostgreSQL", () => {
  let fake: OpenAIFake;
  let a: AppServer;
  let b: AppServer;
  beforeAll(async () => {
    const url = await createPostgresDatabase(postgres!, `hintline_baseline_instances_${process.pid}`);
    migrate(url);
    fake = await startOpenAIFake();
    [a, b] = await Promise.all([
      startAppServer({ env: providerEnv(fake.url), databaseUrl: url }),
      startAppServer({ env: providerEnv(fake.url), databaseUrl: url }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await fake?.close();
  });

  it("compares a call on B with the last call on A, and A's next call with B's", async () => {
    const id = `shared-${Date.now().toString(36)}`;
    await turn(a, fake, id, "one");
    await turn(b, fake, id, "two");
    expect(await breaks(a, id)).toEqual([]);
    // A settings edit between a call on B and the next on A: A names it, though A's own last call was before B's.
    expect((await patch(b, id, { injection: { timestamps: true } })).status).toBe(200);
    await turn(a, fake, id, "three");
    expect(await breaks(b, id)).toEqual([
      { call: 3, firstChangedMessage: 0, changed: "messages", cause: "settings-edit" },
    ]);
    // And back on B, unchanged: B compares with A's call (its own copy, from call 2, would see a break).
    await turn(b, fake, id, "four");
    await turn(a, fake, id, "five");
    expect(await breaks(a, id)).toEqual([
      { call: 3, firstChangedMessage: 0, changed: "messages", cause: "settings-edit" },
    ]);
  }, 60_000);
});
