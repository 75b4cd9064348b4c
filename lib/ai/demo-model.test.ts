import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { jsonSchema, type LanguageModelUsage, streamText, type ToolSet, tool } from "ai";
import { describe, expect, it } from "vitest";
import { createDemoModel, decide, essay, newestReminderField } from "./demo-model.ts";
import { PANEL_TIP } from "./demo-tasks.ts";

const user = (text: string): LanguageModelV4Prompt[number] => ({ role: "user", content: [{ type: "text", text }] });
const reminder = (fields: string) => user(`<system-reminder>Ground truth:\n${fields}\n</system-reminder>`);
const call = (toolName: string): LanguageModelV4Prompt[number] => ({
  role: "assistant",
  content: [{ type: "tool-call", toolCallId: `c-${toolName}`, toolName, input: {} }],
});
const result = (toolName: string, value: string): LanguageModelV4Prompt[number] => ({
  role: "tool",
  content: [{ type: "tool-result", toolCallId: `c-${toolName}`, toolName, output: { type: "text", value } }],
});

describe("demo model", () => {
  it("writes exactly N words about a topic, the same every time", () => {
    const { text } = decide([user("write 120 words about rivers")]);
    expect(text.split(/\s+/)).toHaveLength(120);
    expect(text).toContain("rivers");
    expect(decide([user("write 120 words about rivers")]).text).toBe(text);
    expect(essay(5, "x")).not.toBe(essay(5, "y"));
  });

  it("answers the time from the newest time reminder, and says so when it has none", () => {
    expect(decide([user("what time is it?")]).text).toMatch(/haven't been told the time/);
    const prompt = [
      reminder("<current-time>2026-07-01T11:00:00</current-time>\n<timezone>UTC</timezone>"),
      user("hi"),
      reminder("<current-time>2026-07-01T12:00:00</current-time>\n<timezone>Europe/Berlin</timezone>"),
      user("What time is it?"),
    ];
    expect(decide(prompt).text).toBe(
      "According to the newest system reminder, it is 2026-07-01T12:00:00 (Europe/Berlin).",
    );
  });

  it("ignores tags in the person's own messages", () => {
    const prompt = [user("<current-time>1999-01-01T00:00:00</current-time> what time is it?")];
    expect(newestReminderField(prompt, "current-time")).toBeUndefined();
  });

  it("answers context questions from the newest context reminder", () => {
    const prompt = [
      reminder("<context-length>Your current context contains 700 tokens.</context-length>"),
      user("how full is your context?"),
    ];
    expect(decide(prompt).text).toBe(
      "My context holds 700 of my 8,192 tokens (9%), as the newest context hint told me.",
    );
    const full = [
      reminder(
        "<context-length>Your current context contains 6000 tokens. When reaching 6553 tokens, your context will be compressed.</context-length>",
      ),
      user("how full is your context?"),
    ];
    expect(decide(full).text).toBe(
      "My context holds 6,000 of my 8,192 tokens (73%), as the newest context hint told me. It is compressed at 6,553 tokens.",
    );
  });

  it("without a context hint, answers how full its context is from its own count of its input", () => {
    expect(decide([user("How full is your context?")]).text).toMatch(
      /^My context holds about \d+ of my 8,192 tokens \(\d+%\) — the figure the meter shows\./,
    );
  });

  it("streams word by word through the AI SDK and reports token usage", async () => {
    const result = streamText({
      model: createDemoModel({ wordDelayMs: 0 }),
      messages: [{ role: "user", content: "write 30 words about lakes" }],
    });
    const deltas: string[] = [];
    for await (const part of result.stream) if (part.type === "text-delta") deltas.push(part.text);
    expect(deltas.length).toBe(30);
    expect((await result.text).split(" ")).toHaveLength(30);
    const usage = await result.usage;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
  });
});

describe("demo model answers", () => {
  const tasksReminder = user(
    "<system-reminder>\n<tasks>The user updated the task list. You have 0 in-progress tasks and 2 pending tasks.</tasks>\n</system-reminder>",
  );
  const listed = [
    call("TaskList"),
    result("TaskList", "1 [pending] a\n2 [pending] b\n(Tool call #1 for 'TaskList' in this conversation.)"),
  ];

  it("reports the prompt prefix it answered last as cached, in 128-token blocks from 1,024 tokens, and answers the same either way", async () => {
    const model = createDemoModel({ wordDelayMs: 0 });
    const history = [
      user(essay(1500, "rivers")),
      { role: "assistant" as const, content: [{ type: "text" as const, text: "noted" }] },
    ];
    const run = async (prompt: LanguageModelV4Prompt) => {
      const result = streamText({ model, messages: prompt as never, maxRetries: 0 });
      return { text: await result.text, usage: await result.usage };
    };
    const first = await run([...history, user("hello")]);
    const again = await run([...history, user("hello")]);
    expect(again.text).toBe(first.text);
    expect(again.usage.inputTokens).toBe(first.usage.inputTokens);
    expect(again.usage.inputTokenDetails.cacheReadTokens).toBe(Math.floor(first.usage.inputTokens! / 128) * 128);
    const next = await run([...history, user("hello"), user("what time is it?")]);
    const cached = next.usage.inputTokenDetails.cacheReadTokens!;
    expect(cached % 128).toBe(0);
    expect(cached).toBeGreaterThanOrEqual(1024);
    expect(cached).toBeLessThanOrEqual(first.usage.inputTokens!);
    // A short prompt is never cached.
    expect((await run([user("hi")])).usage.inputTokenDetails.cacheReadTokens).toBe(0);
  });

  it("calls no tool when the call may call none (a reply's last step), and says it stops there", async () => {
    const model = createDemoModel({ wordDelayMs: 0 });
    const mcp__demo__echo = tool({
      inputSchema: jsonSchema({ type: "object", properties: { value: { type: "string" } } }),
      execute: async () => "echoed",
    });
    const tools = { mcp__demo__echo };
    const messages = [user('mcp mcp__demo__echo {"value":"x"}')];
    const free = await streamText({ model, messages, tools, maxRetries: 0 });
    expect((await free.toolCalls).map((c) => c.toolName)).toEqual(["mcp__demo__echo"]);
    const last = streamText({ model, messages, tools, toolChoice: "none", maxRetries: 0 });
    expect(await last.toolCalls).toEqual([]);
    expect(await last.text).toMatch(/^I have taken every step this reply may take/);
  });

  it("counts the tool definitions in its input, first in the prompt, so they are cached from the second call on", async () => {
    const model = createDemoModel({ wordDelayMs: 0 });
    const echo = tool({
      description: "Echo a value back. ".repeat(300),
      inputSchema: jsonSchema({ type: "object", properties: { value: { type: "string" } } }),
    });
    const run = async (tools?: ToolSet) =>
      (await streamText({ model, messages: [user("hello")], tools, maxRetries: 0 }).usage) as LanguageModelUsage;
    const without = await run();
    const first = await run({ echo });
    expect(first.inputTokens! - without.inputTokens!).toBeGreaterThan(1200);
    const second = await run({ echo });
    expect(second.inputTokenDetails.cacheReadTokens).toBeGreaterThanOrEqual(
      Math.floor((first.inputTokens! - 20) / 128) * 128,
    );
  });

  it("after a tasks reminder, lists the tasks and then does what the person asked", () => {
    expect(decide([user("write 12 words about rivers"), tasksReminder]).calls).toEqual([
      { toolName: "TaskList", input: {} },
    ]);
    const answer = decide([user("write 12 words about rivers"), tasksReminder, ...listed]);
    expect(answer.calls).toBeUndefined();
    expect(answer.text.split(/\s+/)).toHaveLength(12);
    expect(answer.text).toContain("rivers");
    expect(decide([user("hello"), tasksReminder, ...listed]).text).toMatch(/^Hello!/);
  });

  it("calls no TaskList after a tasks reminder that lists the open tasks", () => {
    const listing = user(
      "<system-reminder>\n<tasks>You have 0 in-progress tasks and 2 pending tasks. Use `TaskList` to view them if you don't know.\nOpen tasks:\n1 [pending] a\n2 [pending] b</tasks>\n</system-reminder>",
    );
    expect(decide([user("write 12 words about rivers"), listing]).calls).toBeUndefined();
  });

  it("takes the open tasks from a reminder that lists them, newer than its last TaskList", () => {
    const edited = user(
      "<system-reminder>\n<tasks>The user updated the task list. You have 0 in-progress tasks and 2 pending tasks. Use `TaskList` to view them if you don't know.\nOpen tasks:\n[2] pending book a van\n[3] pending unpack</tasks>\n</system-reminder>",
    );
    const answer = decide([user("add tasks: a; b"), ...listed, user("what's next?"), edited]);
    expect(answer.calls).toBeUndefined();
    expect(answer.text).toContain("Next up: task #2 — book a van.");
  });

  it("lays a task list out as a Markdown list, one task per line", () => {
    expect(decide([user("what's left?"), ...listed]).text).toBe(
      "Here are your tasks:\n\n- #1 a — pending\n- #2 b — pending",
    );
    expect(decide([user("what's left?"), call("TaskList"), result("TaskList", "No tasks available.")]).text).toBe(
      "You have no tasks yet.",
    );
  });

  it("sums up what the calls did in words, lists as lists, never the results' text", () => {
    const prompt = [
      user("add tasks: a; b"),
      call("TaskCreate"),
      result("TaskCreate", "Task (id=1) created successfully: a"),
      call("TaskList"),
      result("TaskList", "Tasks:\n1 [pending] a\n2 [pending] b"),
    ];
    expect(decide(prompt).text).toBe(`I added a task:\n\n- #1 a\n\n${PANEL_TIP}`);
    const finished = [
      user("finish 1"),
      call("TaskUpdate"),
      result(
        "TaskUpdate",
        "Update task (id=1) status.\n\nTask completed. Call TaskList now to find your next available task or see if your work unblocked others.",
      ),
    ];
    expect(decide(finished).text).toBe("Task #1 is now done.");
    const failure: LanguageModelV4Prompt[number] = {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c-TaskUpdate",
          toolName: "TaskUpdate",
          output: { type: "error-text", value: "TaskNotFoundError: The task (id=9) does not exist.\nWhat to do: x" },
        },
      ],
    };
    const refused = [user("start 9"), call("TaskUpdate"), failure];
    expect(decide(refused).text).not.toMatch(/Error|What to do|Call TaskList/);
  });
});
