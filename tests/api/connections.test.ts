// Connections (issue 46): model endpoints added over the API, against the real server on SQLite and (with
// TEST_POSTGRES_URL) PostgreSQL, one server start per dialect (a second instance's view: tests/api/instances.test.ts).
// The OpenAI fake serves two models (one reporting a 4,096 window as vLLM does); a second fake is another connection.
// Added through the API, listed by GET /api/models as <connection>/<model>, each picked for a reply that reaches the
// right model of the right connection with its key; the key never comes back, is never logged, and is not in the row
// in plain text; a bad URL, a silent server or a malformed body is a 400 with nothing stored; the environment's
// provider is listed and cannot be edited; disable and delete take the models away.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { getJson, readChunks, streamedText } from "../support/chat-client.ts";
import { type OpenAIFake, startOpenAIFake } from "../support/openai-fake.ts";
import { countRows, databaseKinds, expectApiError, jsonRequest } from "./helpers.ts";

type ModelInfo = { id: string; provider: string; contextWindow: number; isDemo: boolean; connection?: string };
type Connection = {
  id: string;
  kind: string;
  baseUrl: string | null;
  apiKeySet: boolean;
  enabled: boolean;
  source: string;
  editable: boolean;
  models: { id: string; contextWindow: number }[];
};
const LAB_KEY = "lab-secret-key-0123456789";
const OTHER_KEY = "other-secret-key-9876543210";

async function storedKey(databaseUrl: string, id: string): Promise<string | null> {
  if (databaseUrl.startsWith("file:")) {
    const db = new Database(databaseUrl.replace(/^file:/, ""), { readonly: true });
    try {
      return (db.prepare(`SELECT "apiKey" FROM "Connection" WHERE id = ?`).get(id) as { apiKey: string | null }).apiKey;
    } finally {
      db.close();
    }
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(`SELECT "apiKey" FROM "Connection" WHERE id = $1`, [id])).rows[0].apiKey;
  } finally {
    await client.end();
  }
}

describe.each(databaseKinds("connections"))("$name: connections", ({ databaseUrl }) => {
  let lab: OpenAIFake;
  let other: OpenAIFake;
  let silent: net.Server;
  let silentUrl: string;
  let server: AppServer;
  const env = {
    HINTLINE_CONNECTION_TIMEOUT_MS: "1500",
    ANTHROPIC_API_KEY: "sk-ant-environment-key",
    // On PostgreSQL the generated key would go to ./data (the checkout's); SQLite's goes beside its file (checked below).
    HINTLINE_SECRET: "connections test secret",
  };
  beforeAll(async () => {
    lab = await startOpenAIFake({ models: [{ id: "fake-small", max_model_len: 4_096 }, { id: "fake-large" }] });
    other = await startOpenAIFake({ models: [{ id: "Qwen/Qwen2.5-7B-Instruct" }] });
    silent = net.createServer(() => {}); // accepts and never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/v1`;
    const url = await databaseUrl();
    server = await startAppServer({ env: url ? env : { ...env, HINTLINE_SECRET: undefined }, databaseUrl: url });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await Promise.all([lab?.close(), other?.close()]);
    silent?.close();
  });

  const api = (p: string, init?: RequestInit, on = server) => fetch(`${on.url}/api${p}`, init);
  const models = async (on = server, refresh = false) =>
    (await getJson<{ default: string; models: ModelInfo[] }>(`${on.url}/api/models${refresh ? "?refresh=1" : ""}`))
      .body;
  const add = (body: Record<string, unknown>) => api("/connections", jsonRequest("POST", body));
  const reply = async (conversationId: string, model: string) => {
    const response = await api(
      "/chat",
      jsonRequest("POST", {
        id: conversationId,
        model,
        message: { id: `m-${conversationId}`, role: "user", parts: [{ type: "text", text: "Which model are you?" }] },
      }),
    );
    const text = response.ok ? streamedText(await readChunks(response)) : await response.text();
    return { status: response.status, text };
  };

  it("lists the environment's provider as a connection that cannot be edited, its key never shown", async () => {
    const response = await api("/connections");
    const raw = await response.text();
    expect(response.status).toBe(200);
    expect(raw).not.toContain("sk-ant-environment-key");
    const listed = JSON.parse(raw) as Connection[];
    expect(listed[0]).toMatchObject({
      id: "anthropic",
      kind: "anthropic",
      apiKeySet: true,
      source: "environment",
      editable: false,
    });
    expect(
      await expectApiError(
        await api("/connections/anthropic", jsonRequest("PATCH", { enabled: false })),
        409,
        "conflict",
      ),
    ).toMatch(/environment variables/);
    await expectApiError(await api("/connections/anthropic", { method: "DELETE" }), 409, "conflict");
    expect((await models()).models.some((m) => m.id === "hintline-demo" && m.isDemo)).toBe(true);
  });

  it("adds a connection that lists its server's models, the key sealed in its row and never returned", async () => {
    const response = await add({ id: "lab", kind: "openai-compatible", baseUrl: lab.url, apiKey: LAB_KEY });
    const raw = await response.text();
    expect(response.status).toBe(201);
    expect(raw).not.toContain(LAB_KEY);
    expect(JSON.parse(raw)).toMatchObject({
      id: "lab",
      kind: "openai-compatible",
      baseUrl: lab.url,
      apiKeySet: true,
      enabled: true,
      source: "api",
      editable: true,
      models: [
        { id: "lab/fake-small", contextWindow: 4_096 },
        { id: "lab/fake-large", contextWindow: 8_192 },
      ],
    });
    expect(lab.modelListRequests.at(-1)!.headers.authorization).toBe(`Bearer ${LAB_KEY}`);
    const sealed = await storedKey(server.databaseUrl, "lab");
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain(LAB_KEY);
    expect(sealed).not.toContain(Buffer.from(LAB_KEY).toString("base64url").slice(0, 12));
    expect((await add({ id: "other", kind: "openai-compatible", baseUrl: other.url, apiKey: OTHER_KEY })).status).toBe(
      201,
    );
    const listed = await (await api("/connections")).text();
    expect(listed).not.toContain(LAB_KEY);
    expect(listed).not.toContain(OTHER_KEY);
  });

  it("lists each connection's models as <connection>/<model> with the window its server reported", async () => {
    const { models: offered } = await models();
    const ours = offered.filter((m) => m.connection);
    expect(ours).toEqual([
      { id: "lab/fake-small", provider: "openai-compatible", connection: "lab", contextWindow: 4_096, isDemo: false },
      { id: "lab/fake-large", provider: "openai-compatible", connection: "lab", contextWindow: 8_192, isDemo: false },
      {
        id: "other/Qwen/Qwen2.5-7B-Instruct",
        provider: "openai-compatible",
        connection: "other",
        contextWindow: 32_768,
        isDemo: false,
      },
    ]);
    const before = lab.modelListRequests.length;
    await models(server, true);
    expect(lab.modelListRequests.length).toBeGreaterThan(before); // asked again on demand
  });

  it("serves a reply by the model picked, at its connection, with its key", async () => {
    const picks: Array<[string, OpenAIFake, string, string]> = [
      ["lab/fake-small", lab, "fake-small", LAB_KEY],
      ["lab/fake-large", lab, "fake-large", LAB_KEY],
      ["other/Qwen/Qwen2.5-7B-Instruct", other, "Qwen/Qwen2.5-7B-Instruct", OTHER_KEY],
    ];
    for (const [model, fake, served, key] of picks) {
      const id = `conn-${served.replace(/\W/g, "-")}-${Date.now()}`;
      fake.enqueue({ text: `Served by ${served}.` });
      const { status, text } = await reply(id, model);
      expect(status).toBe(200);
      expect(text).toContain(`Served by ${served}.`);
      expect(fake.requests.at(-1)!.body.model).toBe(served);
      expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${key}`);
      const { body } = await getJson<{ model: ModelInfo }>(`${server.url}/api/conversations/${id}`);
      expect(body.model).toMatchObject({ id: model, connection: model.split("/")[0] });
      if (model === "lab/fake-small") expect(body.model.contextWindow).toBe(4_096);
      const exported = await (await api(`/conversations/${id}/export`)).text();
      expect(exported).not.toContain(key);
    }
    expect(server.logs()).not.toContain(LAB_KEY);
    expect(server.logs()).not.toContain(OTHER_KEY);
  });

  it("refuses a bad URL, a silent server and malformed bodies with a 400 naming the problem, storing nothing", async () => {
    const startedAt = Date.now();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ id: "refused", kind: "openai-compatible", baseUrl: "http://127.0.0.1:1/v1" }, /connection refused/],
      [{ id: "silent", kind: "openai-compatible", baseUrl: silentUrl }, /did not answer within 1.5 s/],
      [{ id: "not-a-url", kind: "openai-compatible", baseUrl: "not a url" }, /baseUrl/],
      [{ id: "no-url", kind: "openai-compatible" }, /baseUrl/],
      [{ id: "Bad_Id", kind: "openai-compatible", baseUrl: lab.url }, /kebab-case/],
      [{ id: "openai", kind: "openai-compatible", baseUrl: lab.url }, /names a provider of the environment/],
      [{ id: "odd-kind", kind: "ollama", baseUrl: lab.url }, /kind/],
      [{ id: "extra", kind: "openai-compatible", baseUrl: lab.url, headers: {} }, /headers/],
      [{ id: "key-in-url", kind: "openai-compatible", baseUrl: `${lab.url}?key=x` }, /query/],
    ];
    for (const [body, words] of cases)
      expect(await expectApiError(await add(body), 400, /bad_request|invalid/)).toMatch(words);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    for (const id of ["refused", "silent", "not-a-url", "no-url", "openai", "odd-kind", "extra", "key-in-url"])
      expect(await countRows(server.databaseUrl, "Connection", "id", id)).toBe(0);
    await expectApiError(await add({ id: "lab", kind: "openai-compatible", baseUrl: lab.url }), 409, "conflict");
    await expectApiError(await api("/connections/lab", jsonRequest("PATCH", { kind: "openai" })), 400, "bad_request");
    // A new URL that answers nothing changes nothing.
    await expectApiError(
      await api("/connections/lab", jsonRequest("PATCH", { baseUrl: silentUrl })),
      400,
      "bad_request",
    );
    expect((await models()).models.filter((m) => m.connection === "lab")).toHaveLength(2);
  });

  it("tests a connection in words: what it serves, or what failed", async () => {
    const { body: ok } = await getJson(`${server.url}/api/connections/lab/test`, { method: "POST" });
    expect(ok).toEqual({
      ok: true,
      models: [{ id: "lab/fake-small", contextWindow: 4_096 }, { id: "lab/fake-large" }],
    });
    const { status } = await getJson(`${server.url}/api/connections/nope/test`, { method: "POST" });
    expect(status).toBe(404);
  });

  it("takes a disabled connection's models away, and a deleted one's", async () => {
    expect((await api("/connections/other", jsonRequest("PATCH", { enabled: false }))).status).toBe(200);
    expect((await models()).models.some((m) => m.connection === "other")).toBe(false);
    const refused = await reply(`conn-disabled-${Date.now()}`, "other/Qwen/Qwen2.5-7B-Instruct");
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/connection other is disabled/);
    expect((await api("/connections/lab", { method: "DELETE" })).status).toBe(204);
    expect((await models()).models.some((m) => m.connection === "lab")).toBe(false);
    await expectApiError(await api("/connections/lab", { method: "DELETE" }), 404, "not_found");
    expect(await countRows(server.databaseUrl, "Connection", "id", "lab")).toBe(0);
  });

  it("generates the key it seals with into the data directory, owner-only, when HINTLINE_SECRET is not set", () => {
    if (!server.databaseUrl.startsWith("file:")) return;
    const file = path.join(path.dirname(server.databaseUrl.replace(/^file:/, "")), "connection-secret");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});
