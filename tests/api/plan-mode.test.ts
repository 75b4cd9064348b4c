// Plan mode against the real HTTP fake of the OpenAI API, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: the tool
// list and the system prompt stay byte-identical across plan → build switches, a write in plan mode is refused (counted,
// nothing created), each switch is announced once by a Mode reminder in place, PlanWrite and the person's edits store
// versions, export/import carry them, and bad input changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import { type OpenAIFake, type RecordedRequest, startOpenAIFake, toolResultText } from "../support/openai-fake.ts";
import { expectApiError, jsonRequest, databaseKinds } from "./helpers.ts";

type WireMessage = { role: string; content: unknown; tool_call_id?: string };
type PlanVersion = { version: number; content: string; author: string; createdAt: string };
type View = {
  mode: string;
  plan: { content: string; version: number; author: string; updatedAt: string } | null;
  planVersions: PlanVersion[];
  tasks: Array<{ id: string; subject: string }>;
  messages: Array<{
    role: string;
    parts: Array<{
      type: string;
      data?: { source?: { sublabel?: string }; text?: string; fields?: Record<string, string>; imported?: boolean };
    }>;
  }>;
};

const PLAN_REMINDER = "<system-reminder>\nPLAN MODE is active (read-only).";
const BUILD_REMINDER =
  "<system-reminder>\nYou have switched from PLAN to BUILD mode; the read-only restriction is lifted.";

const messagesOf = (r: RecordedRequest | undefined) => (r?.body.messages ?? []) as WireMessage[];
const textOf = (m: WireMessage | undefined) =>
  typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");
const countStarting = (r: RecordedRequest | undefined, prefix: string) =>
  messagesOf(r).filter((m) => m.role === "user" && textOf(m).startsWith(prefix)).length;

/** The reminders sent right after the person's message `text` (a runtime hint may sit beside the Mode one). */
function remindersAfter(r: RecordedRequest | undefined, text: string): string[] {
  const messages = messagesOf(r);
  const at = messages.findLastIndex((m) => m.role === "user" && textOf(m) === text);
  expect(at, `the person's "${text}" is in the request`).toBeGreaterThanOrEqual(0);
  const after: string[] = [];
  for (const m of messages.slice(at + 1)) {
    if (m.role !== "user" || !textOf(m).startsWith("<system-reminder>")) break;
    after.push(textOf(m));
  }
  return after;
}

const kinds = databaseKinds("plan");

describe.each(kinds)("$name: plan mode", ({ databaseUrl }) => {
  let fake: OpenAIFake;
  let server: AppServer;
  beforeAll(async () => {
    fake = await startOpenAIFake();
    server = await startAppServer({ env: providerEnv(fake.url), databaseUrl: await databaseUrl() });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  const url = (id: string, rest = "") => `${server.url}/api/conversations/${id}${rest}`;
  const view = async (id: string) => (await getJson<View>(url(id))).body;
  const patch = (id: string, body: unknown) => getJson<View>(url(id), jsonRequest("PATCH", body));

  it("keeps tools and system prompt byte-identical across plan → build, refuses writes while planning, announces each switch once", async () => {
    const id = `plan-${Date.now().toString(36)}`;
    fake.reset();
    fake.enqueue({ text: "Hi." });
    await chat(server.url, { conversationId: id, text: "hello" });
    expect(countStarting(fake.requests[0], "<system-reminder>\nPLAN")).toBe(0); // a new conversation in build mode: no reminder
    expect((await view(id)).mode).toBe("build");

    const switched = await patch(id, { mode: "plan" });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ mode: "plan", plan: null, planVersions: [] });

    fake.enqueue(
      {
        kind: "tools",
        calls: [
          { id: "call_create", name: "TaskCreate", arguments: { subject: "Write it", description: "now" } },
          { id: "call_plan", name: "PlanWrite", arguments: { content: "# Plan\n\n- Outline\n- Draft" } },
        ],
      },
      { text: "Here is my plan." },
    );
    const planning = await chat(server.url, { conversationId: id, text: "plan a blog post" });
    const planReminders = remindersAfter(fake.requests[1], "plan a blog post").filter((t) => t.includes("MODE"));
    expect(planReminders).toHaveLength(1);
    expect(planReminders[0]).toMatch(
      /^<system-reminder>\nPLAN MODE is active \(read-only\)\. Investigate the problem and draft a plan with PlanWrite, but do NOT modify tasks/,
    );
    const refusal = toolResultText(fake.requests[2], "call_create");
    expect(refusal).toMatch(/^PlanModeError: PLAN MODE is on \(read-only\): TaskCreate .*nothing changed\./);
    expect(refusal).toContain('Arguments sent: {"subject":"Write it","description":"now"}');
    expect(refusal).toContain("write your plan with PlanWrite");
    expect(refusal.endsWith("\n(Tool call #1 for 'TaskCreate' in this conversation.)")).toBe(true);
    expect(toolResultText(fake.requests[2], "call_plan")).toMatch(
      /^Plan saved \(version 1, 25 characters\)\. .*\n\(Tool call #1 for 'PlanWrite' in this conversation\.\)$/s,
    );
    expect(planning.chunks.filter((c) => c.type === "data-tasks")).toEqual([]);
    expect(planning.chunks.find((c) => c.type === "data-plan")).toMatchObject({
      data: { content: "# Plan\n\n- Outline\n- Draft", version: 1, author: "agent" },
    });
    expect((await view(id)).tasks).toEqual([]);

    fake.enqueue({ text: "Still planning." });
    await chat(server.url, { conversationId: id, text: "anything else?" });
    expect(countStarting(fake.requests[3], PLAN_REMINDER)).toBe(1); // told once, kept in place

    const edited = await patch(id, { plan: { content: "# Plan\n\n- Outline\n- Draft\n- Publish (added by me)" } });
    expect(edited.body.planVersions.map((v) => [v.version, v.author])).toEqual([
      [1, "agent"],
      [2, "person"],
    ]);
    expect((await patch(id, { mode: "build" })).body).toMatchObject({
      mode: "build",
      plan: { version: 2, author: "person" },
    });

    fake.enqueue(
      {
        kind: "tools",
        calls: [{ id: "call_build", name: "TaskCreate", arguments: { subject: "Outline", description: "" } }],
      },
      { text: "Built." },
    );
    const building = await chat(server.url, { conversationId: id, text: "go" });
    const buildReminders = remindersAfter(fake.requests[4], "go").filter((t) => t.includes("BUILD mode"));
    expect(buildReminders).toHaveLength(1);
    expect(buildReminders[0]).toMatch(
      /^<system-reminder>\nYou have switched from PLAN to BUILD mode; the read-only restriction is lifted\. An approved plan exists \(version 2, 49 characters; PlanRead reads it whole\):\n<approved-plan>\n# Plan\n\n- Outline\n- Draft\n- Publish \(added by me\)\n<\/approved-plan>\n/,
    );
    expect(toolResultText(fake.requests[5], "call_build")).toBe(
      "Task (id=1) created successfully: Outline\n(Tool call #2 for 'TaskCreate' in this conversation.)",
    );
    expect(building.chunks.some((c) => c.type === "data-tasks")).toBe(true);

    // PlanWrite works in build mode too (it updates the plan).
    fake.enqueue(
      {
        kind: "tools",
        calls: [{ id: "call_plan2", name: "PlanWrite", arguments: { content: "- Outline ✓\n- Draft" } }],
      },
      { text: "Updated." },
    );
    await chat(server.url, { conversationId: id, text: "note the progress" });
    expect(toolResultText(fake.requests[7], "call_plan2")).toMatch(/^Plan saved \(version 3, /);
    expect(countStarting(fake.requests[7], PLAN_REMINDER)).toBe(1);
    expect(countStarting(fake.requests[7], BUILD_REMINDER)).toBe(1);

    // The cached prefix: the same tools and system prompt on every call, each call's input extending the last.
    const requests = fake.requests;
    expect(requests).toHaveLength(8);
    const tools = JSON.stringify(requests[0]!.body.tools);
    expect(requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      "TaskCreate",
      "TaskGet",
      "TaskList",
      "TaskUpdate",
      "PlanWrite",
      "PlanRead",
      "MemoryWrite",
      "MemorySearch",
      "KnowledgeRead",
      "KnowledgeSearch",
      "KnowledgeList",
      "InstructionsRead",
      "SkillLoad",
      "AgentSpawn",
      "AgentSend",
      "AgentList",
    ]);
    const system = JSON.stringify(messagesOf(requests[0])[0]);
    expect(messagesOf(requests[0])[0]?.role).toBe("system");
    for (let i = 1; i < requests.length; i++) {
      expect(JSON.stringify(requests[i]!.body.tools), `tools of request ${i}`).toBe(tools);
      expect(JSON.stringify(messagesOf(requests[i])[0]), `system prompt of request ${i}`).toBe(system);
      const [before, now] = [messagesOf(requests[i - 1]), messagesOf(requests[i])];
      expect(JSON.stringify(now.slice(0, before.length)), `request ${i} extends request ${i - 1}`).toBe(
        JSON.stringify(before),
      );
    }

    const stored = await view(id);
    expect(stored.tasks.map((t) => t.subject)).toEqual(["Outline"]);
    expect(stored.plan).toMatchObject({ content: "- Outline ✓\n- Draft", version: 3, author: "agent" });
    const modeHints = stored.messages
      .flatMap((m) => m.parts)
      .filter((p) => p.type === "data-hint" && p.data?.source?.sublabel === "Mode");
    expect(modeHints.map((p) => p.data?.fields)).toEqual([
      { mode: "plan" },
      { mode: "build", plan: "approved", version: "2" },
    ]);

    // Export and import carry the mode and every version; the imported Mode hints are never sent.
    await patch(id, { mode: "plan" });
    const exported = (await getJson(url(id, "/export"))).body;
    expect(exported.conversation).toMatchObject({ mode: "plan", plan: { version: 3 } });
    expect(exported.conversation.planVersions.map((v: PlanVersion) => v.author)).toEqual(["agent", "person", "agent"]);
    const imported = await getJson<{ id: string }>(
      `${server.url}/api/conversations/import`,
      jsonRequest("POST", { ...exported, conversation: { ...exported.conversation, id: undefined } }),
    );
    expect(imported.status).toBe(201);
    const copy = await view(imported.body.id);
    expect(copy).toMatchObject({ mode: "plan", plan: { content: "- Outline ✓\n- Draft", version: 3 } });
    expect(copy.planVersions.map((v) => v.content)).toEqual(stored.planVersions.map((v) => v.content));
    const copiedHints = copy.messages
      .flatMap((m) => m.parts)
      .filter((p) => p.type === "data-hint" && p.data?.source?.sublabel === "Mode");
    expect(copiedHints.every((p) => p.data?.imported === true)).toBe(true);
    fake.enqueue({ text: "Planning again." });
    await chat(server.url, { conversationId: imported.body.id, text: "continue" });
    // Only the fresh reminder is sent (the imported ones are not), and it says plan mode.
    expect(countStarting(fake.requests.at(-1), PLAN_REMINDER)).toBe(1);
    expect(countStarting(fake.requests.at(-1), BUILD_REMINDER)).toBe(0);
    expect(remindersAfter(fake.requests.at(-1), "continue").some((t) => t.startsWith(PLAN_REMINDER))).toBe(true);
  });

  it("answers bad input clearly and changes nothing; PlanWrite refuses a plan over its limit", async () => {
    const id = `plan-bad-${Date.now().toString(36)}`;
    fake.reset();
    fake.enqueue({ text: "Hi." });
    await chat(server.url, { conversationId: id, text: "hello" });
    await patch(id, { plan: { content: "- keep me" } });
    const before = JSON.stringify(await view(id));

    expect(
      await expectApiError(await fetch(url(id), jsonRequest("PATCH", { mode: "draft" })), 400, "bad_request"),
    ).toMatch(/mode.*"draft"/);
    const tooLong = "x".repeat(50_001);
    expect(
      await expectApiError(
        await fetch(url(id), jsonRequest("PATCH", { plan: { content: tooLong } })),
        400,
        "bad_request",
      ),
    ).toMatch(/50,001.*50,000/);
    expect(
      await expectApiError(
        await fetch(url(id), jsonRequest("PATCH", { mode: "plan", plan: { content: tooLong } })),
        400,
        "bad_request",
      ),
    ).toContain("50,000");
    await expectApiError(await fetch(url(id), jsonRequest("PATCH", { plan: { content: "  " } })), 400, "bad_request");
    await expectApiError(await fetch(url(id), jsonRequest("PATCH", { plan: "text" })), 400, "bad_request");
    await expectApiError(
      await fetch(url(id), jsonRequest("PATCH", { mode: "plan", settings: { injection: { timeInterval: -1 } } })),
      400,
      "bad_request",
    );
    expect(
      await expectApiError(
        await fetch(url("no-such-conversation"), jsonRequest("PATCH", { mode: "plan" })),
        404,
        "not_found",
      ),
    ).toContain("no-such-conversation");
    expect(JSON.stringify(await view(id))).toBe(before);

    fake.enqueue(
      { kind: "tools", calls: [{ id: "call_big", name: "PlanWrite", arguments: { content: tooLong } }] },
      { text: "Too long." },
    );
    await chat(server.url, { conversationId: id, text: "write a long plan" });
    const error = toolResultText(fake.requests.at(-1), "call_big");
    expect(error).toMatch(
      /^PlanTooLargeError: The plan is 50,001 characters, over the limit of 50,000; it was not saved\./,
    );
    expect(error.endsWith("\n(Tool call #1 for 'PlanWrite' in this conversation.)")).toBe(true);
    expect((await view(id)).plan).toMatchObject({ content: "- keep me", version: 1 });
  });
});
