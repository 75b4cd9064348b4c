// Reading a workspace's state sources before a step (lib/chat/state-reader.ts), against a real database (SQLite and
// PostgreSQL), sources served by the test on loopback and an injected clock: a source is read at most once per
// refreshSeconds per process, however many steps and conversations ask (concurrent asks share one read); an edited
// source is read afresh; a step waits for a slow read no longer than its timeout and a later step uses the late
// answer; a failure keeps the time it began; a switched-off source is not read.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.HINTLINE_MCP_ALLOW_PRIVATE = "1";

const { disconnectDb } = await import("@/lib/db/client");
const { createWorkspace } = await import("@/lib/db/workspaces");
const { addStateSource, editStateSource } = await import("@/lib/chat/state-sources");
const { readStateSources } = await import("@/lib/chat/state-reader");

const hits: Record<string, number> = {};
const answers: Record<string, { status: number; body: string; delayMs?: number }> = {};
const server = http.createServer((request, response) => {
  const path = request.url ?? "";
  hits[path] = (hits[path] ?? 0) + 1;
  const answer = answers[path] ?? { status: 404, body: "" };
  const timer = setTimeout(() => response.writeHead(answer.status).end(answer.body), answer.delayMs ?? 0);
  request.on("close", () => clearTimeout(timer));
});
let base = "";
let n = 0;
const T0 = Date.parse("2026-07-01T12:00:00Z");
let clockMs = T0;
const now = () => new Date(clockMs);

async function workspaceWith(
  sources: Array<{ name: string; path: string; timeoutSeconds?: number; enabled?: boolean }>,
) {
  const id = `ws-reader-${process.pid}-${n++}`;
  await createWorkspace({ id, name: id, max: 1_000 });
  for (const { name, path, timeoutSeconds, enabled } of sources)
    await addStateSource(id, {
      name,
      kind: "http",
      url: `${base}${path}`,
      refreshSeconds: 10,
      ...(timeoutSeconds ? { timeoutSeconds } : {}),
      ...(enabled === false ? { enabled } : {}),
    });
  return id;
}

describe("reading state sources before a step", () => {
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await disconnectDb();
  });

  it("reads a source at most once per refreshSeconds, concurrent asks sharing one read; an edit reads afresh", async () => {
    answers["/a"] = { status: 200, body: '{"status":"green","depth":3}' };
    const ws = await workspaceWith([
      { name: "a", path: "/a" },
      { name: "off", path: "/off", enabled: false },
    ]);
    clockMs = T0;
    const [first, second] = await Promise.all([readStateSources(ws, now), readStateSources(ws, now)]);
    expect(hits["/a"]).toBe(1);
    expect(first).toEqual([
      {
        name: "a",
        maxTokens: 200,
        reading: { ok: true, fields: { status: "green", depth: "3" }, readAt: now().toISOString() },
      },
    ]);
    expect(second).toEqual(first);
    expect(hits["/off"]).toBeUndefined();
    answers["/a"] = { status: 200, body: '{"status":"red","depth":3}' };
    clockMs = T0 + 9_999;
    expect((await readStateSources(ws, now))[0]!.reading).toMatchObject({ fields: { status: "green" } });
    expect(hits["/a"]).toBe(1);
    clockMs = T0 + 10_000;
    expect((await readStateSources(ws, now))[0]!.reading).toMatchObject({ fields: { status: "red" } });
    expect(hits["/a"]).toBe(2);
    // Edited: read again at once, whatever the refresh.
    await editStateSource(ws, "a", { maxTokens: 300 });
    clockMs = T0 + 10_001;
    expect((await readStateSources(ws, now))[0]).toMatchObject({ maxTokens: 300 });
    expect(hits["/a"]).toBe(3);
  });

  it("waits for a slow source no longer than its timeout; a later step uses the late answer without reading again", async () => {
    answers["/slow"] = { status: 200, body: '{"build":"passed"}', delayMs: 2_000 };
    const ws = await workspaceWith([{ name: "slow", path: "/slow", timeoutSeconds: 1 }]);
    clockMs = T0;
    const started = performance.now();
    expect(await readStateSources(ws, now)).toEqual([{ name: "slow", maxTokens: 200 }]);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(1_900);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    clockMs = T0 + 2_000;
    expect((await readStateSources(ws, now))[0]!.reading).toMatchObject({ ok: true, fields: { build: "passed" } });
    expect(hits["/slow"]).toBe(1);
  });

  it("keeps when a failing source began to fail, in words without its body", async () => {
    answers["/down"] = { status: 503, body: "SECRET-BODY" };
    const ws = await workspaceWith([{ name: "down", path: "/down" }]);
    clockMs = T0;
    const first = (await readStateSources(ws, now))[0]!.reading;
    expect(first).toEqual({
      ok: false,
      reason: "it answered HTTP 503 Service Unavailable",
      since: now().toISOString(),
    });
    answers["/down"] = { status: 200, body: "not json SECRET-BODY" };
    clockMs = T0 + 20_000;
    expect((await readStateSources(ws, now))[0]!.reading).toEqual({
      ok: false,
      reason: "the answer is not JSON",
      since: new Date(T0).toISOString(),
    });
    answers["/down"] = { status: 200, body: '{"ok":1}' };
    clockMs = T0 + 40_000;
    expect((await readStateSources(ws, now))[0]!.reading).toMatchObject({ ok: true, fields: { ok: "1" } });
  });
});
