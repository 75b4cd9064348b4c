// Timestamps, the pause and the repeat warning through the real server and the OpenAI fake: with timestamps on,
// every person's message and tool result reaches the provider prefixed with its stored time in the conversation's
// zone, the same bytes call after call; after a pause the time hint says how long it was; and the third identical
// tool call in a reply gets a warning at the end of its result.
import { describe, expect, it } from "vitest";
import { providerServerForFile } from "../support/app-server.ts";
import { chat } from "../support/chat-client.ts";
import type { FakeReply, RecordedRequest } from "../support/openai-fake.ts";
import { jsonRequest } from "./helpers.ts";

const env = providerServerForFile();

type WireMessage = { role: string; content: unknown; tool_call_id?: string };
const messages = (r: RecordedRequest) => r.body.messages as WireMessage[];
const wire = (r: RecordedRequest) => messages(r).map((m) => JSON.stringify(m));
const STAMP = /^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\] /;
const tool = (name: string, args: unknown): FakeReply => ({ kind: "tools", calls: [{ name, arguments: args }] });

describe("timestamps", () => {
  it("prefix the person's messages and tool results in the provider's request, stable across calls, and tell a pause", async () => {
    env.fake.reset();
    const id = `stamps-${Date.now()}`;
    const url = env.server.url;
    const turn = async (text: string, ...replies: FakeReply[]) => {
      env.fake.enqueue(...replies);
      expect((await chat(url, { conversationId: id, text, timezone: "Asia/Kolkata" })).response.status).toBe(200);
    };
    await turn("before", { text: "ok" });
    const patch = await fetch(
      `${url}/api/conversations/${id}`,
      jsonRequest("PATCH", { settings: { injection: { timestamps: true, timeInterval: 0.0005 } } }),
    );
    expect(patch.status).toBe(200);
    const first = env.fake.requests.length;
    await turn("add a task", tool("TaskCreate", { subject: "Pack", description: "boxes" }), { text: "Added." });
    await new Promise((r) => setTimeout(r, 2_000)); // a pause longer than timeInterval (1.8 s)
    await turn("list them", tool("TaskList", {}), { text: "Listed." });
    const requests = env.fake.requests.slice(first);
    const last = messages(requests.at(-1)!);
    const people = last.filter(
      (m) => m.role === "user" && typeof m.content === "string" && !m.content.startsWith("<system-reminder>"),
    );
    expect(people.map((m) => m.content)).toEqual([
      expect.stringMatching(STAMP),
      expect.stringMatching(STAMP),
      expect.stringMatching(STAMP),
    ]);
    expect((people.at(-1)!.content as string).replace(STAMP, "")).toBe("list them");
    const tools = last.filter((m) => m.role === "tool");
    expect(tools).toHaveLength(2);
    for (const m of tools) expect(m.content).toMatch(STAMP);
    // The zone is the conversation's: the stamp reads the stored time in Asia/Kolkata (UTC+05:30).
    const stamp = (people.at(-1)!.content as string).slice(1, 20);
    const stored = new Date(`${stamp.replace(" ", "T")}+05:30`).getTime();
    expect(Math.abs(stored - Date.now())).toBeLessThan(60_000);
    // Stable: every request extends the previous one byte for byte (the stamps are fixed when stored).
    const bodies = requests.map(wire);
    for (let i = 1; i < bodies.length; i++) expect(bodies[i - 1]!.every((m, j) => bodies[i]![j] === m)).toBe(true);
    // The pause: the first call of the last reply carries the time and how long after the agent's reply it came.
    const hint = messages(requests[2]!).at(-1)!.content as string;
    expect(hint).toMatch(/<time-since-last-message>1 min since your last reply<\/time-since-last-message>/);
    expect(hint).toContain("<current-time>");
    // Turning timestamps on rewrote the history once: the cache-break detector names it the settings edit it was.
    const context = await fetch(`${url}/api/conversations/${id}/context`).then(
      (r) => r.json() as Promise<{ cache: { breaks: Array<{ cause: string; firstChangedMessage: number | null }> } }>,
    );
    expect(context.cache.breaks.map((b) => b.cause)).toEqual(["settings-edit"]);
  });
});

describe("the repeat warning", () => {
  it("ends the third identical tool call's result in a reply with a warning naming the count", async () => {
    env.fake.reset();
    const id = `repeat-${Date.now()}`;
    env.fake.enqueue(tool("TaskList", {}), tool("TaskList", {}), tool("TaskList", {}), tool("TaskList", {}), {
      text: "Done.",
    });
    expect((await chat(env.server.url, { conversationId: id, text: "list" })).response.status).toBe(200);
    const results = messages(env.fake.requests.at(-1)!)
      .filter((m) => m.role === "tool")
      .map((m) => m.content as string);
    expect(results).toHaveLength(4);
    expect(results[0]).not.toContain("Warning:");
    expect(results[1]).not.toContain("Warning:");
    expect(results[2]).toMatch(
      /\nWarning: this is call 3 of TaskList with these same arguments in this reply, and it gave the same result as the one before\. .*try a different approach/,
    );
    expect(results[3]).toContain("Warning: this is call 4 of TaskList");
    // The system prompt says what the counter and the warning mean, and is the same in every call.
    const systems = env.fake.requests.map((r) => JSON.stringify(messages(r)[0]));
    expect(systems[0]).toContain("When a result ends with");
    expect(new Set(systems).size).toBe(1);
  });
});
