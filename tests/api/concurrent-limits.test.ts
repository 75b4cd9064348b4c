// Count limits and uniqueness hold under concurrent requests, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: with
// room for 5 more, 30 simultaneous creates of knowledge files, memory entries, workspaces and skills make exactly 5
// (the others a 409 naming the limit), and 11 simultaneous copies of one memory entry make one. On PostgreSQL every
// limit was passed (206 of 200 knowledge files, 1,035 of 1,000 entries, 11 copies, 113 of 100 workspaces).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { databaseKinds, jsonRequest } from "./helpers.ts";

const kinds = databaseKinds("limits");
const ROOM = 5;
const RACERS = 30;

describe.each(kinds)("$name: limits under concurrent requests", ({ databaseUrl }) => {
  let server: AppServer;
  const api = (path: string) => `${server.url}/api${path}`;
  const json = async <T>(response: Response) => (await response.json()) as T;

  beforeAll(async () => {
    server = await startAppServer({ databaseUrl: await databaseUrl() });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Fires the requests at once; how many got each status. */
  async function race(requests: Array<() => Promise<Response>>): Promise<Record<number, number>> {
    const responses = await Promise.all(requests.map((r) => r()));
    const counts: Record<number, number> = {};
    for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    return counts;
  }

  /** Runs `make(i)` for i < n, `width` at a time. */
  async function fill(n: number, make: (i: number) => Promise<Response>, width = 8): Promise<void> {
    for (let i = 0; i < n; i += width) {
      const batch = await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, j) => make(i + j)));
      for (const r of batch) expect(r.status).toBe(201);
    }
  }

  it("knowledge files: 200 at most", { timeout: 180_000 }, async () => {
    const ws = (await json<{ id: string }>(await fetch(api("/workspaces"), jsonRequest("POST", { name: "Files" })))).id;
    const put = (path: string) =>
      fetch(api(`/workspaces/${ws}/knowledge/${path}`), {
        method: "PUT",
        headers: { "content-type": "text/plain" },
        body: path,
      });
    await fill(200 - ROOM, (i) => put(`f${i}.md`));
    const counts = await race(Array.from({ length: RACERS }, (_, i) => () => put(`race${i}.md`)));
    expect(counts).toEqual({ 201: ROOM, 409: RACERS - ROOM });
    expect((await json<unknown[]>(await fetch(api(`/workspaces/${ws}/knowledge`)))).length).toBe(200);
  });

  it("memory entries: 1,000 at most, and one copy of an entry", { timeout: 180_000 }, async () => {
    const ws = (await json<{ id: string }>(await fetch(api("/workspaces"), jsonRequest("POST", { name: "Memory" }))))
      .id;
    const copies = await race(
      Array.from(
        { length: 11 },
        () => () => fetch(api(`/workspaces/${ws}/memory`), jsonRequest("POST", { text: "Prefers tea" })),
      ),
    );
    expect(copies).toEqual({ 201: 1, 409: 10 });
    const lines = ["Prefers tea", ...Array.from({ length: 1_000 - ROOM - 1 }, (_, i) => `Fact number ${i}`)];
    expect((await fetch(api(`/workspaces/${ws}`), jsonRequest("PATCH", { memory: lines.join("\n") }))).status).toBe(
      200,
    );
    const counts = await race(
      Array.from(
        { length: RACERS },
        (_, i) => () => fetch(api(`/workspaces/${ws}/memory`), jsonRequest("POST", { text: `Raced fact ${i}` })),
      ),
    );
    expect(counts).toEqual({ 201: ROOM, 409: RACERS - ROOM });
    expect((await json<unknown[]>(await fetch(api(`/workspaces/${ws}/memory`)))).length).toBe(1_000);
  });

  it("skills: 100 at most", { timeout: 180_000 }, async () => {
    const ws = (await json<{ id: string }>(await fetch(api("/workspaces"), jsonRequest("POST", { name: "Skills" }))))
      .id;
    const skill = (name: string) =>
      fetch(api(`/workspaces/${ws}/skills`), jsonRequest("POST", { name, description: "d", instructions: "i" }));
    await fill(100 - ROOM, (i) => skill(`skill-${i}`));
    const counts = await race(Array.from({ length: RACERS }, (_, i) => () => skill(`race-${i}`)));
    expect(counts).toEqual({ 201: ROOM, 409: RACERS - ROOM });
    expect((await json<unknown[]>(await fetch(api(`/workspaces/${ws}/skills`)))).length).toBe(100);
  });

  it("workspaces: 100 at most", { timeout: 180_000 }, async () => {
    const existing = (await json<unknown[]>(await fetch(api("/workspaces")))).length;
    await fill(100 - ROOM - existing, (i) => fetch(api("/workspaces"), jsonRequest("POST", { name: `Filler ${i}` })));
    const counts = await race(
      Array.from(
        { length: RACERS },
        (_, i) => () => fetch(api("/workspaces"), jsonRequest("POST", { name: `Raced ${i}` })),
      ),
    );
    expect(counts).toEqual({ 201: ROOM, 409: RACERS - ROOM });
    expect((await json<unknown[]>(await fetch(api("/workspaces")))).length).toBe(100);
  });
});
