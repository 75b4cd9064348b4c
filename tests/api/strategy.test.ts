// The injection strategies through the real server and the OpenAI fake: append keeps every hint and each request
// extends the previous one byte for byte; replace sends one full status as the last message of every call and
// removes it from the next (each request is the previous one minus its status plus the new suffix, with the system
// prompt and tools byte-identical), marks it superseded in the transcript, and the detector names every removal
// "replaced-status"; auto prices what each sends, with the conversation's measured figures and cache.
import { describe, expect, it } from "vitest";
import { providerServerForFile } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import type { FakeReply, RecordedRequest } from "../support/openai-fake.ts";
import { countTokens } from "@/lib/agent/token-count";
import { type ApiMessage, expectApiError, jsonRequest } from "./helpers.ts";

const env = providerServerForFile({ HINTLINE_CONTEXT_WINDOW: "200000" });

type WireMessage = { role: string; content: unknown };
type Strategy = {
  configured: string;
  chosen: string;
  reason: string;
  S: number;
  h: number;
  p: number;
  M: number;
  alpha: number;
  alphaFrom: string;
};
type Break = { call: number; firstChangedMessage: number | null; changed: string; cause: string };

const wire = (r: RecordedRequest) => (r.body.messages as WireMessage[]).map((m) => JSON.stringify(m));
const isStatus = (m: string) => m.includes("<system-reminder>") && JSON.parse(m).role === "user";
const isFullStatus = (m: string) =>
  isStatus(m) && ["<current-time>", "<timezone>", "<tasks>", "<context-length>"].every((tag) => m.includes(tag));
const startsWith = (longer: string[], prefix: string[]) => prefix.every((m, i) => longer[i] === m);
const tool = (name: string, args: unknown): FakeReply => ({ kind: "tools", calls: [{ name, arguments: args }] });
const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${i % 17}`).join(" ");

function conversation(prefix: string) {
  const id = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
  const url = env.server.url;
  return {
    id,
    patch: (injection: object) =>
      fetch(`${url}/api/conversations/${id}`, jsonRequest("PATCH", { settings: { injection } })),
    addTask: async (subject: string) =>
      expect((await fetch(`${url}/api/conversations/${id}/tasks`, jsonRequest("POST", { subject }))).status).toBe(201),
    turn: async (text: string, ...replies: FakeReply[]) => {
      env.fake.enqueue(...replies);
      const { response } = await chat(url, { conversationId: id, text, timezone: "Europe/Berlin" });
      expect(response.status).toBe(200);
    },
    context: () =>
      getJson<{ strategy: Strategy; cache: { breaks: Break[] } }>(`${url}/api/conversations/${id}/context`).then(
        (r) => r.body,
      ),
    messages: () => getJson<{ messages: ApiMessage[] }>(`${url}/api/conversations/${id}`).then((r) => r.body.messages),
  };
}

describe("injection strategies", () => {
  it("rejects an unknown strategy naming the field, and changes nothing", async () => {
    env.fake.reset();
    const c = conversation("strategy-bad");
    await c.turn("hi", { text: "hello" });
    const message = await expectApiError(await c.patch({ strategy: "sometimes" }), 400, "bad_request");
    expect(message).toContain("settings.injection.strategy");
    expect((await c.context()).strategy.configured).toBe("append");
  });

  it("append keeps every hint: each request extends the previous one byte for byte", async () => {
    env.fake.reset();
    const c = conversation("strategy-append");
    await c.turn("plan the trip", tool("TaskCreate", { subject: "Book", description: "train" }), {
      text: "Made a task.",
    });
    // The person edits the task in the panel: the next step carries a hint about it.
    expect(
      (
        await fetch(
          `${env.server.url}/api/conversations/${c.id}/tasks/1`,
          jsonRequest("PATCH", { subject: "Book the train" }),
        )
      ).status,
    ).toBe(200);
    await c.turn("go on", tool("TaskUpdate", { task_id: "1", status: "in_progress" }), tool("TaskList", {}), {
      text: "Started.",
    });
    await c.turn("and now?", { text: "Keep going." });
    const requests = env.fake.requests.map(wire);
    expect(requests.length).toBe(6);
    for (let i = 1; i < requests.length; i++) expect(startsWith(requests[i]!, requests[i - 1]!)).toBe(true);
    const hints = (r: string[]) => r.filter(isStatus);
    expect(hints(requests.at(-1)!).length).toBeGreaterThanOrEqual(2);
    for (const earlier of requests) for (const hint of hints(earlier)) expect(requests.at(-1)).toContain(hint);
    expect((await c.context()).cache.breaks).toEqual([]);
  });

  it("replace sends a full status last in every call and removes it from the next; the transcript marks it superseded", async () => {
    env.fake.reset();
    const c = conversation("strategy-replace");
    await c.turn("hello", { text: "Hi." });
    expect((await c.patch({ strategy: "replace" })).status).toBe(200);
    const first = env.fake.requests.length;
    await c.turn("plan the trip", tool("TaskCreate", { subject: "Book", description: "train" }), tool("TaskList", {}), {
      text: "Made a task.",
    });
    await c.turn("go on", tool("TaskUpdate", { task_id: "1", status: "in_progress" }), { text: "Started." });
    await c.turn("and now?", { text: "Keep going." });
    const requests = env.fake.requests.slice(first);
    expect(requests.length).toBe(6);
    const bodies = requests.map(wire);
    for (let i = 0; i < bodies.length; i++) {
      const body = bodies[i]!;
      // The status is the last message, with the whole runtime state; the hint of the append turn stays.
      expect(isFullStatus(body.at(-1)!)).toBe(true);
      expect(body.filter(isStatus).length).toBe(2);
      if (i === 0) continue;
      const before = bodies[i - 1]!;
      // The previous request minus its status is a prefix of this one: only the suffix after it is new.
      expect(startsWith(body, before.slice(0, -1))).toBe(true);
      expect(body.slice(before.length - 1)).not.toContain(before.at(-1));
      expect(body[0]).toBe(before[0]); // the system prompt
      expect(JSON.stringify(requests[i]!.body.tools)).toBe(JSON.stringify(requests[i - 1]!.body.tools));
    }
    // The transcript shows every status that was sent, each superseded once a newer one replaced it.
    const statuses = (await c.messages()).flatMap((m) =>
      m.parts.filter((p) => p.type === "data-hint" && (p.data as { replace?: boolean }).replace),
    );
    expect(statuses.length).toBe(6);
    expect(statuses.every((p) => (p.data as { superseded?: boolean }).superseded === true)).toBe(true);
    expect(statuses.map((p) => (p.data as { text: string }).text)).toEqual(
      bodies.map((b) => JSON.parse(b.at(-1)!).content),
    );
    // Every removal is the expected one: a replaced status, never unexpected.
    const { cache, strategy } = await c.context();
    expect(cache.breaks.length).toBe(5);
    expect(cache.breaks.every((b) => b.cause === "replaced-status" && b.changed === "messages")).toBe(true);
    expect(cache.breaks.map((b) => b.firstChangedMessage)).toEqual(bodies.slice(0, -1).map((b) => b.length - 2)); // after the system prompt
    expect(strategy).toMatchObject({ configured: "replace", chosen: "replace", reason: "configured: replace" });
  });

  it("auto keeps appending while the runtime state does not change", async () => {
    env.fake.reset();
    const c = conversation("strategy-auto-quiet");
    await c.turn("hello", { text: `${words(115, "hix")}.` });
    expect((await c.patch({ strategy: "auto" })).status).toBe(200);
    const decisions: Strategy[] = [];
    for (let turn = 0; turn < 9; turn++) {
      await c.turn(`next ${turn}`, { text: `${words(115, `q${turn}x`)}.` });
      decisions.push((await c.context()).strategy);
    }
    console.log(`auto, state unchanged: ${decisions.map((d) => `p=${d.p} → ${d.chosen}`).join("; ")}`);
    expect(decisions.map((d) => d.chosen)).toEqual(Array(9).fill("append"));
    expect(decisions.at(-1)!.p).toBeLessThanOrEqual(0.2);
    expect((await c.context()).cache.breaks).toEqual([]);
  });

  /** `turns` turns under auto, the person adding a task before every `every`-th (every 1: the state changes at every call). */
  async function changingState(prefix: string, { turns = 9, every = 1 } = {}) {
    const c = conversation(prefix);
    await c.turn("hello", { text: `${words(115, "hix")}.` });
    expect((await c.patch({ strategy: "auto" })).status).toBe(200);
    const decisions: Strategy[] = [];
    const firstRequest: number[] = [];
    for (let turn = 0; turn < turns; turn++) {
      if (turn % every === 0) await c.addTask(`step ${turn}`);
      firstRequest.push(env.fake.requests.length);
      await c.turn(`next ${turn}`, { text: `${words(115, `w${turn}x`)}.` });
      decisions.push((await c.context()).strategy);
    }
    console.log(
      `${prefix}: ${decisions.map((d) => `M=${d.M} p=${d.p} h=${d.h} S=${d.S} α=${d.alpha} (${d.alphaFrom}) → ${d.chosen}`).join("; ")}`,
    );
    return { c, decisions, firstRequest, chosen: decisions.map((d) => d.chosen) };
  }

  it("auto goes from append to replace once the state changes at every call", async () => {
    env.fake.reset();
    env.fake.setCacheMinTokens(128); // a short conversation: the fake caches its prefixes from the start
    const cached = await changingState("strategy-auto-cached");
    // The provider cached: re-reading is measured cheaper than new input.
    expect(cached.decisions.at(-1)).toMatchObject({ alphaFrom: "measured", p: 1 });
    expect(cached.decisions.at(-1)!.alpha).toBeLessThan(1);
    // The figures are checked against what was sent, not taken on trust: S is the full status the last call sent, h
    // the task hints sent while it appended (the same counter plus the message's overhead; within 5 %).
    const sent = env.fake.requests.map((r) => r.body.messages as WireMessage[]);
    const content = (m: WireMessage) =>
      typeof m.content === "string"
        ? m.content
        : (m.content as Array<{ text?: string }>).map((p) => p.text ?? "").join("");
    const tokens = (m: WireMessage) => countTokens(content(m)) + 4;
    const near = (figure: number, measured: number) => Math.abs(figure - measured) <= 0.05 * measured;
    const lastCall = sent[cached.firstRequest.at(-1)!]!;
    expect(isFullStatus(JSON.stringify(lastCall.at(-1)))).toBe(true);
    expect({ S: cached.decisions.at(-1)!.S, sent: tokens(lastCall.at(-1)!) }).toSatisfy(
      ({ S, sent: t }: { S: number; sent: number }) => near(S, t),
    );
    // h: the mean of the hints append sent, from the first turn's on (each lists the open tasks, so they grow).
    const appended = [0, ...cached.firstRequest.filter((_, turn) => cached.chosen[turn] === "append")].map((index) =>
      sent[index]!.findLast((m) => isStatus(JSON.stringify(m)) && !isFullStatus(JSON.stringify(m))),
    );
    expect(appended.length).toBeGreaterThan(1);
    const meanSent = appended.reduce((sum, m) => sum + tokens(m!), 0) / appended.length;
    expect({ h: cached.decisions.at(-1)!.h, sent: meanSent }).toSatisfy(({ h, sent: t }: { h: number; sent: number }) =>
      near(h, t),
    );
    // It flips once, from append to replace, and stays.
    const flip = cached.chosen.indexOf("replace");
    expect(flip).toBeGreaterThan(0);
    expect(cached.chosen.slice(flip).every((x) => x === "replace")).toBe(true);
    // The requests show it: an append call's hint stays in the next request, a replace call's status does not.
    const requests = env.fake.requests.map(wire);
    for (let turn = 0; turn < 8; turn++) {
      const sent = requests[cached.firstRequest[turn]!]!;
      const next = requests[cached.firstRequest[turn + 1]!]!;
      if (cached.chosen[turn] === "append") expect(startsWith(next, sent)).toBe(true);
      else {
        expect(isFullStatus(sent.at(-1)!)).toBe(true);
        expect(startsWith(next, sent.slice(0, -1))).toBe(true);
        expect(next).not.toContain(sent.at(-1));
      }
    }
    expect((await cached.c.context()).cache.breaks.every((b) => b.cause === "replaced-status")).toBe(true);

    env.fake.setCacheMinTokens(1024);
  });

  it("auto switches sooner on a provider that caches nothing, where every stale hint is re-read at full price", async () => {
    env.fake.reset();
    env.fake.setCacheMinTokens(128);
    const cached = await changingState("strategy-half-cached", { turns: 14, every: 2 });
    env.fake.setCacheMinTokens(Number.MAX_SAFE_INTEGER);
    try {
      const uncached = await changingState("strategy-half-uncached", { turns: 14, every: 2 });
      expect(uncached.decisions.at(-1)).toMatchObject({ alphaFrom: "measured", alpha: 1 });
      expect(cached.decisions.at(-1)!.alpha).toBeLessThan(0.8);
      const [flipCached, flipUncached] = [cached.chosen.indexOf("replace"), uncached.chosen.indexOf("replace")];
      expect(flipUncached).toBeGreaterThan(0);
      expect(flipCached === -1 || flipUncached < flipCached).toBe(true);
    } finally {
      env.fake.setCacheMinTokens(1024);
    }
  });
});
