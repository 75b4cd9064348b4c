// The task REST routes (the person's edits from the panel) and the task tools driven by a real OpenAI fake.
import { describe, expect, it } from "vitest";
import { providerServerForFile } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import type { RecordedRequest } from "../support/openai-fake.ts";
import { expectApiError } from "./helpers.ts";

type Task = { id: string; subject: string; description: string; status: string; blocks: string[]; blockedBy: string[] };
type WireMessage = { role: string; content: unknown; tool_call_id?: string };

const env = providerServerForFile();

const json = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { "content-type": "application/json" },
  ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
});
const tasksUrl = (id: string) => `${env.server.url}/api/conversations/${id}/tasks`;

async function newConversation(): Promise<string> {
  const id = `tasks-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  env.fake.enqueue({ text: "ok" });
  await chat(env.server.url, { conversationId: id, text: "hello" });
  return id;
}

describe("task routes", () => {
  it("adds, edits, re-statuses, reorders and deletes tasks", async () => {
    const id = await newConversation();
    for (const subject of ["one", "two", "three"]) {
      const res = await fetch(tasksUrl(id), json("POST", { subject }));
      expect(res.status).toBe(201);
    }
    const patched = await getJson<Task>(
      `${tasksUrl(id)}/2`,
      json("PATCH", { subject: "two!", description: "d", status: "completed" }),
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: "2", subject: "two!", description: "d", status: "completed" });
    expect((await getJson<Task[]>(`${tasksUrl(id)}/3`, json("PATCH", { position: 0 }))).status).toBe(200);
    expect((await getJson<Task[]>(tasksUrl(id))).body.map((t) => t.id)).toEqual(["3", "1", "2"]);
    expect((await fetch(`${tasksUrl(id)}/1`, json("DELETE"))).status).toBe(204);
    const { body } = await getJson<Task[]>(tasksUrl(id));
    expect(body.map((t) => [t.id, t.subject, t.status])).toEqual([
      ["3", "three", "pending"],
      ["2", "two!", "completed"],
    ]);
    // The conversation view carries the same list.
    expect(
      (await getJson<{ tasks: Task[] }>(`${env.server.url}/api/conversations/${id}`)).body.tasks.map((t) => t.id),
    ).toEqual(["3", "2"]);
  });

  it("rejects bad input with a clear 4xx and changes nothing", async () => {
    const id = await newConversation();
    await fetch(tasksUrl(id), json("POST", { subject: "keep me" }));
    const before = JSON.stringify((await getJson<Task[]>(tasksUrl(id))).body);
    const cases: Array<[string, RequestInit, number, string]> = [
      [`${tasksUrl(id)}/99`, json("PATCH", { status: "completed" }), 404, "not_found"],
      [`${tasksUrl(id)}/99`, json("DELETE"), 404, "not_found"],
      [`${tasksUrl(id)}/abc`, json("PATCH", { status: "completed" }), 400, "bad_request"],
      [`${tasksUrl(id)}/1`, json("PATCH", { status: "done" }), 400, "bad_request"],
      [`${tasksUrl(id)}/1`, json("PATCH", { subject: "   " }), 400, "bad_request"],
      [`${tasksUrl(id)}/1`, json("PATCH", {}), 400, "bad_request"],
      [`${tasksUrl(id)}/1`, json("PATCH", { surprise: 1 }), 400, "bad_request"],
      [`${tasksUrl(id)}/1`, json("PATCH", "{oops"), 400, "invalid_json"],
      [tasksUrl(id), json("POST", { subject: "" }), 400, "bad_request"],
      [tasksUrl(id), json("POST", { description: "no subject" }), 400, "bad_request"],
      [tasksUrl(id), json("POST", { subject: "x", status: "deleted" }), 400, "bad_request"],
      [tasksUrl("no-such-conversation"), json("POST", { subject: "x" }), 404, "not_found"],
      [tasksUrl("no-such-conversation"), json("GET"), 404, "not_found"],
    ];
    for (const [url, init, status, code] of cases) {
      const message = await expectApiError(await fetch(url, init), status, code);
      if (code === "bad_request" && init.method === "PATCH" && String(init.body).includes("done"))
        expect(message).toMatch(/status/);
    }
    expect(JSON.stringify((await getJson<Task[]>(tasksUrl(id))).body)).toBe(before);
  });
});

describe("task tools through the provider", () => {
  it("a scripted TaskCreate call creates a task and the next request carries the tool result text", async () => {
    const id = `tool-${Date.now().toString(36)}`;
    env.fake.reset();
    env.fake.enqueue(
      {
        kind: "tools",
        calls: [
          { id: "call_1", name: "TaskCreate", arguments: { subject: "Write tests", description: "API and browser" } },
        ],
      },
      { text: "Created it." },
    );
    const { chunks } = await chat(env.server.url, { conversationId: id, text: "plan the work" });
    expect(chunks.some((c) => c.type === "data-tasks")).toBe(true);
    const tasks = (await getJson<Task[]>(tasksUrl(id))).body;
    expect(tasks).toMatchObject([
      { id: "1", subject: "Write tests", description: "API and browser", status: "pending" },
    ]);

    const [first, second] = env.fake.requests.map((r) => r.body.messages as WireMessage[]);
    expect(env.fake.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name).sort()).toEqual(
      [
        "AgentList",
        "AgentSend",
        "AgentSpawn",
        "InstructionsRead",
        "KnowledgeList",
        "KnowledgeRead",
        "KnowledgeSearch",
        "MemorySearch",
        "MemoryWrite",
        "PlanRead",
        "PlanWrite",
        "SkillLoad",
        "TaskCreate",
        "TaskGet",
        "TaskList",
        "TaskUpdate",
      ],
    );
    expect(second!.slice(0, first!.length)).toEqual(first);
    const toolMessage = second!.find((m) => m.role === "tool" && m.tool_call_id === "call_1");
    expect(String(toolMessage?.content)).toBe(
      "Task (id=1) created successfully: Write tests\n(Tool call #1 for 'TaskCreate' in this conversation.)",
    );
  });

  it("a failing tool call reaches the model as a detailed error, and the person's edit reaches it as a hint", async () => {
    const id = `tool-err-${Date.now().toString(36)}`;
    env.fake.reset();
    env.fake.enqueue(
      {
        kind: "tools",
        calls: [{ id: "call_9", name: "TaskUpdate", arguments: { task_id: "9", status: "completed" } }],
      },
      { text: "Sorry." },
    );
    await chat(env.server.url, { conversationId: id, text: "finish 9" });
    const second = env.fake.requests[1]!.body.messages as WireMessage[];
    // The OpenAI wire format carries a tool error as {"error": <text>}.
    const error = (JSON.parse(String(second.find((m) => m.role === "tool")?.content)) as { error: string }).error;
    expect(error.startsWith("TaskNotFoundError: ")).toBe(true);
    expect(error).toContain("TaskNotFoundError: The task (id=9) does not exist.");
    expect(error).toContain('Arguments sent: {"task_id":"9","status":"completed"}');
    expect(error).toContain("What to do: Call TaskList");

    await fetch(tasksUrl(id), json("POST", { subject: "added by the person" }));
    env.fake.enqueue({ text: "Noted." });
    await chat(env.server.url, { conversationId: id, text: "anything new?" });
    const third = env.fake.requests[2]!.body.messages as WireMessage[];
    expect(String(third.at(-1)?.content)).toContain(
      "<tasks>The user updated the task list. You have 0 in-progress tasks and 1 pending tasks. Use `TaskList` to view them if you don't know.\nOpen tasks:\n[1] pending added by the person</tasks>",
    );
    // Told once: the next turn carries no tasks hint.
    env.fake.enqueue({ text: "Fine." });
    await chat(env.server.url, { conversationId: id, text: "and now?" });
    expect(String((env.fake.requests[3]!.body.messages as WireMessage[]).at(-1)?.content)).toBe("and now?");
  });

  /** The text the model got for a tool call in a recorded request (an error goes over the wire as {"error": text}). */
  function toolText(request: RecordedRequest | undefined, callId: string): string {
    const content = String(
      ((request?.body.messages ?? []) as WireMessage[]).find((m) => m.role === "tool" && m.tool_call_id === callId)
        ?.content,
    );
    try {
      const parsed = JSON.parse(content) as { error?: string };
      return typeof parsed?.error === "string" ? parsed.error : content;
    } catch {
      return content;
    }
  }

  it("invalid arguments, not JSON or not matching the parameters, reach the model as a detailed error with the call counter", async () => {
    const id = `tool-bad-${Date.now().toString(36)}`;
    env.fake.reset();
    env.fake.enqueue(
      { kind: "tools", calls: [{ id: "call_json", name: "TaskUpdate", arguments: '{"task_id": "1", status: done' }] },
      {
        kind: "tools",
        calls: [{ id: "call_schema", name: "TaskUpdate", arguments: { task_id: "1", status: "finished" } }],
      },
      { text: "Sorry." },
    );
    await chat(env.server.url, { conversationId: id, text: "finish 1" });
    const notJson = toolText(env.fake.requests[1], "call_json");
    expect(notJson).not.toContain("AI_InvalidToolInputError");
    expect(notJson).toMatch(
      /^InvalidArgumentsError: The arguments are not a JSON object \(not valid JSON\)\.\nArguments sent: \{"task_id": "1", status: done\nWhat to do: Call TaskUpdate again with a JSON object like /,
    );
    expect(notJson.endsWith("\n(Tool call #1 for 'TaskUpdate' in this conversation.)")).toBe(true);
    const wrong = toolText(env.fake.requests[2], "call_schema");
    expect(wrong).toMatch(/^InvalidArgumentsError: The arguments do not match TaskUpdate's parameters: status: /);
    expect(wrong).toContain('\nArguments sent: {"task_id":"1","status":"finished"}\n');
    expect(wrong.endsWith("\n(Tool call #2 for 'TaskUpdate' in this conversation.)")).toBe(true);
    // Both are ordinary, counted calls of the tool in the stored reply.
    const { body } = await getJson<{ messages: Array<{ parts: Array<{ type: string; state?: string }> }> }>(
      `${env.server.url}/api/conversations/${id}`,
    );
    expect(body.messages.flatMap((m) => m.parts).filter((p) => p.type.includes("tool"))).toMatchObject([
      { type: "tool-TaskUpdate", state: "output-error" },
      { type: "tool-TaskUpdate", state: "output-error" },
    ]);
  });

  it("the person's edit is news for the next step only, even when no task is open then", async () => {
    const id = await newConversation();
    await fetch(tasksUrl(id), json("POST", { subject: "already done", status: "completed" }));
    env.fake.reset();
    env.fake.enqueue({ text: "Hi." });
    await chat(env.server.url, { conversationId: id, text: "hello again" });
    env.fake.enqueue(
      {
        kind: "tools",
        calls: [{ id: "call_new", name: "TaskCreate", arguments: { subject: "Mine", description: "" } }],
      },
      { text: "Made it." },
    );
    await chat(env.server.url, { conversationId: id, text: "make a task" });
    expect(env.fake.requests).toHaveLength(3);
    expect(JSON.stringify(env.fake.requests.map((r) => r.body.messages))).not.toContain(
      "The user updated the task list.",
    );
  });

  it("TaskList over 5,000 tasks answers one bounded page, open tasks first, and says how to get the next", async () => {
    const tasks = Array.from({ length: 5_000 }, (_, i) => ({
      id: String(i + 1),
      subject: `Task number ${i + 1} with a subject of a usual length`,
      status: i % 2 ? "pending" : "completed",
    }));
    const imported = await fetch(
      `${env.server.url}/api/conversations/import`,
      json("POST", { version: 1, conversation: { messages: [], tasks } }),
    );
    expect(imported.status).toBe(201);
    const { id } = (await imported.json()) as { id: string };
    env.fake.reset();
    env.fake.enqueue(
      { kind: "tools", calls: [{ id: "call_list", name: "TaskList", arguments: {} }] },
      { text: "Listed." },
    );
    await chat(env.server.url, { conversationId: id, text: "what is left?" });
    const result = toolText(env.fake.requests[1], "call_list");
    expect(result.length).toBeLessThan(8_100);
    const lines = result.split("\n");
    expect(lines[0]).toBe("2 [pending] Task number 2 with a subject of a usual length");
    expect(lines.at(-2)).toBe(
      '… 4950 more tasks (open tasks are listed first); call TaskList {"offset": 50} for the next page.',
    );
    expect(lines.at(-1)).toBe("(Tool call #1 for 'TaskList' in this conversation.)");
  });
});
