// The injection strategies through the real server and the OpenAI fake: append keeps every hint and each request
// extends the previous one byte for byte; replace sends one full status as the last message of every call and
// removes it from the next (each request is the previous one minus its status plus the new suffix, with the system
// prompt and tools byte-identical), marks it superseded in the transcript, and the detector names every removal
// "replaced-status"; auto follows the cost model with the conversation's measured S and R.
import { describe, expect, it } from "vitest";
import { providerServerForFile } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import type { FakeReply, RecordedRequest } from "../support/openai-fake.ts";
import { countTokens } from "@/lib/agent/token-count";
import { type ApiMessage, expectApiError, jsonRequest } from "./helpers.ts";

const env = providerServerForFile({ HINTLINE_CONTEXT_WINDOW: "200000" });

type WireMessage = { role: string; content: unknown };
type Strategy = { configured: string; chosen: string; reason: string; S: number; R: number; N: number; alpha: number };
type Break = { call: number; firstChangedMessage: number | null; changed: string; cause: string };

const wire = (r: RecordedRequest) => (r.body.messages as WireMessage[]).map((m) => JSON.stringify(m));
const isStatus = (m: string) => m.includes("<system-reminder>") && JSON.parse(m).role === "user";
const isFullStatus = (m: string) => isStatus(m) && ["<current-time>", "<timezone>", "<tasks>", "<context-length>"].every((tag) => m.includes(tag));
const startsWith = (longer: string[], prefix: string[]) => prefix.every((m, i) => longer[i] === m);
const tool = (name: string, args: unknown): FakeReply => ({ kind: "tools", calls: [{ name, arguments: args }] });
const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${i % 17}`).join(" ");

function conversation(prefix: string) {
  const id = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
  const url = env.server.url;
  return {
    id,
    patch: (injection: object) => fetch(`${url}/api/conversations/${id}`, jsonRequest("PATCH", { settings: { injection } })),
    addTask: async (subject: string) => expect((await fetch(`${url}/api/conversations/${id}/tasks`, jsonRequest("POST", { subject }))).status).toBe(201),
    turn: async (text: string, ...replies: FakeReply[]) => {
      env.fake.enqueue(...replies);
      const { response } = await chat(url, { conversationId: id, text, timezone: "Europe/Berlin" });
      expect(response.status).toBe(200);
    },
    context: () => getJson<{ strategy: Strategy; cache: { breaks: Break[] } }>(`${url}/api/conversations/${id}/context`).then((r) => r.body),
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
    await c.turn("plan the trip", tool("TaskCreate", { subject: "Book", description: "train" }), { text: "Made a task." });
    // The person edits the task in the panel: the next step carries a hint about it.
    expect((await fetch(`${env.server.url}/api/conversations/${c.id}/tasks/1`, jsonRequest("PATCH", { subject: "Book the train" }))).status).toBe(200);
    await c.turn("go on", tool("TaskUpdate", { task_id: "1", status: "in_progress" }), tool("TaskList", {}), { text: "Started." });
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
    await c.turn("plan the trip", tool("TaskCreate", { subject: "Book", description: "train" }), tool("TaskList", {}), { text: "Made a task." });
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
    const statuses = (await c.messages()).flatMap((m) => m.parts.filter((p) => p.type === "data-hint" && (p.data as { replace?: boolean }).replace));
    expect(statuses.length).toBe(6);
    expect(statuses.every((p) => (p.data as { superseded?: boolean }).superseded === true)).toBe(true);
    expect(statuses.map((p) => (p.data as { text: string }).text)).toEqual(bodies.map((b) => JSON.parse(b.at(-1)!).content));
    // Every removal is the expected one: a replaced status, never unexpected.
    const { cache, strategy } = await c.context();
    expect(cache.breaks.length).toBe(5);
    expect(cache.breaks.every((b) => b.cause === "replaced-status" && b.changed === "messages")).toBe(true);
    expect(cache.breaks.map((b) => b.firstChangedMessage)).toEqual(bodies.slice(0, -1).map((b) => b.length - 2)); // after the system prompt
    expect(strategy).toMatchObject({ configured: "replace", chosen: "replace", reason: "configured: replace" });
  });

  it("auto keeps appending while the runtime state does not change: N counts changes, not calls", async () => {
    env.fake.reset();
    const c = conversation("strategy-auto-quiet");
    await c.turn("hello", { text: `${words(115, "hix")}.` });
    expect((await c.patch({ strategy: "auto" })).status).toBe(200);
    const decisions: Strategy[] = [];
    for (let turn = 0; turn < 9; turn++) {
      await c.turn(`next ${turn}`, { text: `${words(115, `q${turn}x`)}.` });
      decisions.push((await c.context()).strategy);
    }
    console.log(`auto, state unchanged: ${decisions.map((d) => `N=${d.N} R=${d.R} → ${d.chosen}`).join("; ")}`);
    expect(decisions.every((d) => d.chosen === "append" && d.N <= 2)).toBe(true);
    const { cache } = await c.context();
    expect(cache.breaks).toEqual([]);
  });

  it("auto appends while αSN/2 < (1−α)R and replaces once the statuses would cost more", async () => {
    env.fake.reset();
    const c = conversation("strategy-auto");
    await c.turn("hello", { text: `${words(115, "hix")}.` });
    expect((await c.patch({ strategy: "auto" })).status).toBe(200);
    const decisions: Strategy[] = [];
    const firstRequest: number[] = [];
    // Answers of about 400 tokens (R), statuses of about 135 (S), α = 0.5: append while 0.5·S·N/2 < 0.5·R, i.e. N < 6.
    // The person adds a task before every turn, so the runtime state changes at every call (one update each).
    for (let turn = 0; turn < 9; turn++) {
      await c.addTask(`step ${turn}`);
      firstRequest.push(env.fake.requests.length);
      await c.turn(`next ${turn}`, { text: `${words(115, `w${turn}x`)}.` });
      decisions.push((await c.context()).strategy);
    }
    const chosen = decisions.map((d) => d.chosen);
    console.log(`auto: ${decisions.map((d) => `N=${d.N} S=${d.S} R=${d.R} → ${d.chosen}`).join("; ")}`);
    // The figures the endpoint reports are checked against what was sent, not taken on trust. N: one update at the
    // first call and one per turn (the person adds a task before each). R: the tokens the conversation grew by between
    // two updates (the answer and the next message; hints left out), counted here from the requests, averaged.
    // S: a full status as sent once auto replaces (the same counter plus the message's overhead; within 5 %, as the
    // endpoint's S averages every status measured and the task counts in them grow).
    const requests = env.fake.requests.map((r) => r.body.messages as WireMessage[]);
    const updates = [0, ...firstRequest].map((i) => requests[i]!);
    const content = (m: WireMessage) => (typeof m.content === "string" ? m.content : (m.content as Array<{ text?: string }>).map((p) => p.text ?? "").join(""));
    const tokens = (m: WireMessage) => countTokens(content(m)) + 4;
    const shared = (a: WireMessage[], b: WireMessage[]) => {
      let i = 0;
      while (i < a.length && JSON.stringify(a[i]) === JSON.stringify(b[i])) i++;
      return i;
    };
    const gaps = updates.slice(1).map((after, k) => {
      const before = updates[k]!;
      return after.slice(shared(before, after)).filter((m) => !isStatus(JSON.stringify(m))).reduce((n, m) => n + tokens(m), 0);
    });
    const fullStatuses = firstRequest.map((i) => requests[i]!.at(-1)!).filter((m) => isFullStatus(JSON.stringify(m)));
    expect(fullStatuses.length).toBeGreaterThan(0);
    const sentS = tokens(fullStatuses[0]!);
    const near = (figure: number, measured: number, share: number) => Math.abs(figure - measured) <= share * measured;
    decisions.forEach((d, turn) => {
      const sentR = gaps.slice(0, turn + 1).reduce((a, b) => a + b, 0) / (turn + 1);
      expect({ turn, N: d.N, S: near(d.S, sentS, 0.05), R: near(d.R, sentR, 0.01), sent: { S: sentS, R: Math.round(sentR) } }).toEqual({
        turn,
        N: turn + 2,
        S: true,
        R: true,
        sent: expect.anything(),
      });
      expect(d.alpha).toBe(0.5); // the fake's model has no price
      // And the decision is the rule applied to those figures.
      expect(d.chosen).toBe((d.alpha * d.S * d.N) / 2 < (1 - d.alpha) * d.R ? "append" : "replace");
    });
    // It flips once, from append to replace.
    const flip = chosen.indexOf("replace");
    expect(flip).toBeGreaterThan(0);
    expect(chosen.slice(flip).every((x) => x === "replace")).toBe(true);
    // And the requests show it: an append call's hint stays in the next request, a replace call's status does not.
    const sentBodies = env.fake.requests.map(wire);
    for (let turn = 0; turn < 8; turn++) {
      const sent = sentBodies[firstRequest[turn]!]!;
      const next = sentBodies[firstRequest[turn + 1]!]!;
      if (chosen[turn] === "append") expect(startsWith(next, sent)).toBe(true);
      else {
        expect(isFullStatus(sent.at(-1)!)).toBe(true);
        expect(startsWith(next, sent.slice(0, -1))).toBe(true);
        expect(next).not.toContain(sent.at(-1));
      }
    }
    const { cache } = await c.context();
    expect(cache.breaks.every((b) => b.cause === "replaced-status")).toBe(true);
  });
});
