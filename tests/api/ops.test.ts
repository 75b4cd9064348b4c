// Operations on one SQLite instance behind an access token: JSON request and reply log lines with request ids, no
// secret in the logs, GET /api/health (open, 503 on a pending migration), GET /api/metrics counting a reply's tokens
// with a bounded model label, and a provider's error that echoes the key stored and shown redacted.
import http from "node:http";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { providerServerForFile } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import { type ConversationView, jsonRequest, userMessage } from "./helpers.ts";

const TOKEN = "tok-SECRET-7f3a9c2e1b4d";
const SECRET_TEXT = "my password is SECRET-MESSAGE-hunter2-9b8c";
// Shaped like no known key, so only its being configured can find it in a provider's words.
const API_KEY = "ops-provider-key-5c7d9e1f";
const ctx = providerServerForFile({ HINTLINE_AUTH_TOKEN: TOKEN, OPENAI_API_KEY: API_KEY });
const auth = { authorization: `Bearer ${TOKEN}` };

type LogLine = { level: number; msg: string; [key: string]: unknown };

function logLines(): LogLine[] {
  return ctx.server
    .logs()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

async function waitForLine(match: (line: LogLine) => boolean): Promise<LogLine> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = logLines().find(match);
    if (found || Date.now() > deadline) return found as LogLine;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function sqlite(file: string) {
  return new Database(file.replace(/^file:/, ""));
}

describe("operations", () => {
  it("logs one JSON line per request with its id, taken from x-request-id or made, and returned", async () => {
    const given = await fetch(`${ctx.server.url}/api/conversations`, {
      headers: { ...auth, "x-request-id": "req-ops-1" },
    });
    expect(given.status).toBe(200);
    expect(given.headers.get("x-request-id")).toBe("req-ops-1");
    const made = await fetch(`${ctx.server.url}/api/conversations/nope-404`, { headers: auth });
    expect(made.status).toBe(404);
    const madeId = made.headers.get("x-request-id") ?? "";
    expect(madeId).toMatch(/^[0-9a-f-]{36}$/);
    const line = await waitForLine((l) => l.requestId === "req-ops-1");
    expect(line).toMatchObject({
      level: 30,
      msg: "request",
      method: "GET",
      route: "/api/conversations",
      status: 200,
      durationMs: expect.any(Number),
    });
    // The conversation's id is not part of the route.
    expect(await waitForLine((l) => l.requestId === madeId)).toMatchObject({
      route: "/api/conversations/:id",
      status: 404,
    });
  });

  it("answers GET /api/health without the token, and never calls the provider", async () => {
    const calls = ctx.fake.requests.length;
    const response = await fetch(`${ctx.server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok", migrations: "ok", provider: "configured" });
    expect(ctx.fake.requests.length).toBe(calls);
    // The Host check still applies.
    const foreign = await new Promise<number | undefined>((resolve, reject) => {
      const url = new URL(ctx.server.url);
      http
        .get(
          { hostname: url.hostname, port: url.port, path: "/api/health", headers: { host: "evil.example" } },
          (response) => {
            response.resume();
            resolve(response.statusCode);
          },
        )
        .on("error", reject);
    });
    expect(foreign).toBe(421);
  });

  it("answers 503 naming a pending migration, and 200 once it is applied", async () => {
    const db = sqlite(ctx.server.databaseUrl);
    try {
      const last = db.prepare("SELECT * FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1").get() as Record<
        string,
        unknown
      >;
      db.prepare("DELETE FROM _prisma_migrations WHERE id = ?").run(last.id);
      const pending = await fetch(`${ctx.server.url}/api/health`);
      expect(pending.status).toBe(503);
      expect(await pending.json()).toMatchObject({
        status: "unavailable",
        database: "ok",
        migrations: "pending",
        pendingMigrations: [last.migration_name],
        problems: [expect.stringContaining("migration")],
      });
      const columns = Object.keys(last);
      db.prepare(
        `INSERT INTO _prisma_migrations (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
      ).run(...columns.map((c) => last[c]));
      expect((await fetch(`${ctx.server.url}/api/health`)).status).toBe(200);
    } finally {
      db.close();
    }
  });

  it("serves metrics behind the token, counting a reply's tokens by model as the provider reported them", async () => {
    expect((await fetch(`${ctx.server.url}/api/metrics`)).status).toBe(401);
    const read = async () => {
      const response = await fetch(`${ctx.server.url}/api/metrics`, { headers: auth });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      return response.text();
    };
    const figure = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? 0);
    const before = await read();
    ctx.fake.enqueue({ text: "Counted.", usage: { promptTokens: 1234, completionTokens: 56, cachedTokens: 1000 } });
    const { response } = await chat(ctx.server.url, { conversationId: "metered", text: "count me", headers: auth });
    expect(response.status).toBe(200);
    const after = await read();
    const model = '\\{model="fake-model"\\}';
    expect(
      figure(after, `hintline_input_tokens_total${model}`) - figure(before, `hintline_input_tokens_total${model}`),
    ).toBe(1234);
    expect(
      figure(after, `hintline_cached_input_tokens_total${model}`) -
        figure(before, `hintline_cached_input_tokens_total${model}`),
    ).toBe(1000);
    expect(
      figure(after, `hintline_output_tokens_total${model}`) - figure(before, `hintline_output_tokens_total${model}`),
    ).toBe(56);
    expect(
      figure(after, `hintline_model_calls_total${model}`) - figure(before, `hintline_model_calls_total${model}`),
    ).toBe(1);
    expect(figure(after, "hintline_replies_started_total") - figure(before, "hintline_replies_started_total")).toBe(1);
    expect(
      figure(after, 'hintline_replies_finished_total\\{status="complete"\\}') -
        figure(before, 'hintline_replies_finished_total\\{status="complete"\\}'),
    ).toBe(1);
    expect(figure(after, 'hintline_reply_duration_seconds_count\\{outcome="complete"\\}')).toBeGreaterThanOrEqual(1);
    expect(figure(after, "hintline_first_token_seconds_count")).toBeGreaterThanOrEqual(1);
    for (const name of [
      "hintline_live_replies",
      "hintline_event_listeners",
      "hintline_approvals_waiting",
      "process_resident_memory_bytes",
    ]) {
      expect(after).toMatch(new RegExp(`^${name} \\d`, "m"));
    }
    const reply = await waitForLine((l) => l.msg === "reply" && l.conversationId === "metered");
    expect(reply).toMatchObject({
      model: "fake-model",
      steps: 1,
      inputTokens: 1234,
      cachedInputTokens: 1000,
      outputTokens: 56,
      outcome: "complete",
    });
    expect(reply.cachedShare).toBeCloseTo(1000 / 1234, 3);
  });

  it("labels a model no one offered as other, however many ids people pick", async () => {
    const read = async () => (await fetch(`${ctx.server.url}/api/metrics`, { headers: auth })).text();
    const calls = (text: string) => Number(/^hintline_model_calls_total\{model="other"\} (\S+)$/m.exec(text)?.[1] ?? 0);
    const before = await read();
    for (const model of ["picked-by-a-person-1", "picked-by-a-person-2"]) {
      const response = await fetch(
        `${ctx.server.url}/api/chat`,
        jsonRequest("POST", { id: model, message: userMessage(`m-${model}`, "hi"), model }, auth),
      );
      expect(response.status).toBe(200);
      await response.text();
    }
    const after = await read();
    expect(calls(after) - calls(before)).toBe(2);
    expect(after).not.toContain("picked-by-a-person");
    expect(after).toMatch(/^hintline_model_calls_total\{model="fake-model"\} \d/m);
  });

  it("stores, streams and returns a provider's error with the secrets it echoed redacted, as the log redacts them", async () => {
    const google = "AIzaSyA-0123456789abcdefghijklmnop";
    ctx.fake.enqueue({
      kind: "http-error",
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${API_KEY}. Sent Authorization: Bearer ${API_KEY} to /v1?key=${google}`,
        },
      },
    });
    const { response, chunks } = await chat(ctx.server.url, {
      conversationId: "echoed-key",
      text: "hello",
      headers: auth,
    });
    expect(response.status).toBe(200);
    const streamed = chunks.filter((c) => c.type === "error").map((c) => c.errorText);
    expect(streamed).toEqual([
      "The model provider refused the request (HTTP 401: Incorrect API key provided: [redacted]. Sent Authorization: Bearer [redacted] to /v1?key=[redacted]): check the API key (OPENAI_API_KEY).",
    ]);
    const view = await getJson<ConversationView>(`${ctx.server.url}/api/conversations/echoed-key`, { headers: auth });
    expect(view.body.messages.at(-1)!.metadata?.error).toBe(streamed[0]);
    const exported = await (
      await fetch(`${ctx.server.url}/api/conversations/echoed-key/export`, { headers: auth })
    ).text();
    await waitForLine((l) => l.msg === "reply failed" && l.conversationId === "echoed-key");
    for (const where of [JSON.stringify(view.body), exported, ctx.server.logs()]) {
      expect(where).not.toContain(API_KEY);
      expect(where).not.toContain(google.slice(0, 12));
    }
  });

  it("keeps message text, tokens and cookies out of the logs", async () => {
    const signIn = await fetch(`${ctx.server.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: TOKEN }),
    });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect(cookie).toMatch(/=/);
    const cookieValue = cookie.slice(cookie.indexOf("=") + 1);
    ctx.fake.enqueue({ text: "Noted, SECRET-REPLY-5e6f." });
    const viaCookie = await chat(ctx.server.url, { conversationId: "secret", text: SECRET_TEXT, headers: { cookie } });
    expect(viaCookie.response.status).toBe(200);
    // A failure that is logged (an unknown conversation's tasks) carries no secret either.
    await fetch(`${ctx.server.url}/api/conversations/secret/tasks`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ subject: SECRET_TEXT }),
    });
    await waitForLine((l) => l.msg === "reply" && l.conversationId === "secret");
    const output = ctx.server.logs();
    expect(output).toContain('"conversationId":"secret"');
    for (const secret of [TOKEN, "SECRET-MESSAGE", "hunter2", "SECRET-REPLY", cookieValue, API_KEY])
      expect(output).not.toContain(secret);
  });
});
