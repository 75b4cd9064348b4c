import { afterEach, describe, expect, it, vi } from "vitest";
import { spawnsAt, TOOL_ACCESS } from "../../agent/tool-catalog.ts";
import { ToolError } from "../../agent/tool-result.ts";
import {
  createTools,
  offeredToolNames,
  TOOL_DEFINITIONS,
  TOOL_NAMES,
  UNKNOWN_TOOL_NAMES_SHOWN,
  unknownToolError,
} from "./index.ts";
import { canonicalJson, createRepeatCounter, repeatWarning } from "./tool-context.ts";

const describeTools = (tools: ReturnType<typeof createTools>) =>
  JSON.stringify(Object.entries(tools).map(([name, t]) => [name, t.description, t.inputSchema]));

describe("the tool list in plan mode", () => {
  it("declares what each tool does; PlanWrite is always there", () => {
    expect(TOOL_DEFINITIONS.map((d) => [d.name, d.access])).toEqual([
      ["TaskCreate", "write"],
      ["TaskGet", "read"],
      ["TaskList", "read"],
      ["TaskUpdate", "write"],
      ["PlanWrite", "plan"],
      ["PlanRead", "read"],
      ["MemoryWrite", "write"],
      ["MemorySearch", "read"],
      ["KnowledgeRead", "read"],
      ["KnowledgeSearch", "read"],
      ["KnowledgeList", "read"],
      ["InstructionsRead", "read"],
      ["SkillLoad", "read"],
      ["AgentSpawn", "read"],
      ["AgentSend", "read"],
      ["AgentList", "read"],
    ]);
    expect(TOOL_NAMES).toContain("PlanWrite");
  });

  it("agrees with the catalog agent definitions are checked against", () => {
    expect(TOOL_DEFINITIONS.map((d) => [d.name, d.access])).toEqual(Object.entries(TOOL_ACCESS));
  });

  it("is the same list in both modes, and a write tool refuses while planning, counted, without running", async () => {
    const counts = new Map<string, number>();
    const context = (mode: "plan" | "build") => ({
      conversationId: "no-such-conversation",
      nextCallNumber: (name: string) => {
        counts.set(name, (counts.get(name) ?? 0) + 1);
        return counts.get(name)!;
      },
      onTasksChanged: () => {
        throw new Error("the tasks must not change");
      },
      mode: () => mode,
    });
    const planning = createTools(context("plan"));
    expect(describeTools(planning)).toBe(describeTools(createTools(context("build"))));
    for (const name of ["TaskCreate", "TaskUpdate"] as const) {
      const args = name === "TaskCreate" ? { subject: "x", description: "y" } : { task_id: "1", status: "completed" };
      const error = await Promise.resolve(
        planning[name].execute!(args, { toolCallId: "c", messages: [], context: {} } as never),
      ).catch((e: Error) => e);
      expect(String(error)).toMatch(new RegExp(`^PlanModeError: PLAN MODE is on \\(read-only\\): ${name} `));
      expect(String(error)).toContain(`Arguments sent: ${JSON.stringify(args)}`);
      expect(String(error)).toContain(
        "What to do: Keep investigating with the read tools (TaskList, TaskGet) and write your plan with PlanWrite",
      );
      expect(String(error).endsWith(`\n(Tool call #1 for '${name}' in this conversation.)`)).toBe(true);
    }
  });
});

describe("the repeat warning", () => {
  it("counts identical calls per reply by name and canonical arguments, and warns from the third with the same result", async () => {
    const repeatCount = createRepeatCounter();
    const tools = createTools({
      conversationId: "none",
      nextCallNumber: () => 1,
      onTasksChanged: () => {},
      mode: () => "plan",
      repeatCount,
    });
    const run = (args: unknown) =>
      Promise.resolve(tools.TaskCreate.execute!(args, { toolCallId: "c", messages: [], context: {} } as never)).catch(
        (e: Error) => String(e),
      );
    const first = await run({ subject: "x", description: "y" });
    const other = await run({ subject: "z", description: "y" });
    const second = await run({ subject: "x", description: "y" });
    const third = await run({ subject: "x", description: "y" });
    for (const text of [first, other, second]) expect(text).not.toContain("Warning:");
    expect(third.endsWith(`\n${repeatWarning("TaskCreate", 3)}`)).toBe(true);
    expect(third).toContain(
      "Warning: this is call 3 of TaskCreate with these same arguments in this reply, and it gave the same result as the one before.",
    );
    expect(await run({ subject: "x", description: "y" })).toContain("Warning: this is call 4 of TaskCreate");
    // A new reply counts afresh.
    const fresh = createRepeatCounter();
    expect(fresh("TaskCreate", { subject: "x", description: "y" }, "done")).toBe(1);
    expect(fresh("TaskCreate", { description: "y", subject: "x" }, "done")).toBe(2); // the same arguments, keys in another order
    expect(canonicalJson({ b: [1, { d: 2, c: 3 }], a: null })).toBe('{"a":null,"b":[1,{"c":3,"d":2}]}');
  });

  it("counts only calls whose result is the same as the previous identical call's (the call counter aside)", () => {
    const count = createRepeatCounter();
    const list = (text: string, call: number) =>
      count("TaskList", {}, `${text}\n(Tool call #${call} for 'TaskList' in this conversation.)`);
    expect([
      list("1 [completed] a\n2 [pending] b", 1),
      list("1 [completed] a\n2 [completed] b", 2),
      list("1 [completed] a\n2 [cancelled] b", 3),
    ]).toEqual([1, 1, 1]);
    expect([list("1 [completed] a\n2 [cancelled] b", 4), list("1 [completed] a\n2 [cancelled] b", 5)]).toEqual([2, 3]);
    expect(list("changed", 6)).toBe(1);
  });
});

describe("the tools' results", () => {
  it("give the model their text through toModelOutput, every tool", async () => {
    const tools = createTools({ conversationId: "c", nextCallNumber: () => 1, onTasksChanged: () => {} });
    for (const name of TOOL_NAMES) {
      const output = { tool: name, text: `${name} said this.\n(Tool call #1 for '${name}' in this conversation.)` };
      expect(await tools[name].toModelOutput?.({ toolCallId: "c1", input: {}, output } as never), name).toEqual({
        type: "text",
        value: output.text,
      });
    }
  });
});

describe("a failure that is no tool error of the tool's own", () => {
  const callOptions = { toolCallId: "c", messages: [], context: {} } as never;
  const counter = () => {
    const counts = new Map<string, number>();
    return (name: string) => {
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return counts.get(name)!;
    };
  };

  it("reaches the model as a ToolExecutionError with its detail, the arguments and the call it took", async () => {
    const nextCallNumber = counter();
    const failure = Object.assign(
      new Error(
        "\nInvalid `prisma.conversation.findMany()` invocation in\n/app/lib/db/subagents.ts:88:31\n\n  85 const rows =\n→ 88   await db.conversation.findMany(\nServer has closed the connection.",
      ),
      { name: "PrismaClientUnknownRequestError", code: "P1017" },
    );
    const host = {
      children: async () => {
        throw failure;
      },
      agents: async () => [],
    };
    const tools = createTools({
      conversationId: "c",
      nextCallNumber,
      onTasksChanged: () => {},
      subagents: host,
    } as never);
    const [first, second] = await Promise.all([
      Promise.resolve(tools.AgentList.execute!({}, callOptions)).catch((e: Error) => e),
      Promise.resolve(tools.AgentList.execute!({ note: "x" }, callOptions)).catch((e: Error) => e),
    ]);
    expect(first).toBeInstanceOf(ToolError);
    expect(String(first)).toBe(
      [
        "ToolExecutionError: AgentList failed inside Hintline: PrismaClientUnknownRequestError (P1017): Invalid `prisma.conversation.findMany()` invocation in Server has closed the connection.",
        "Arguments sent: {}",
        "What to do: This is a fault on the server's side, not in your arguments: try once more; if it fails again, go on without AgentList and tell the person.",
        "(Tool call #1 for 'AgentList' in this conversation.)",
      ].join("\n"),
    );
    // Each call keeps the number it took, also when they run at once; none is counted twice.
    expect(String(second)).toContain('Arguments sent: {"note":"x"}');
    expect(String(second).endsWith("(Tool call #2 for 'AgentList' in this conversation.)")).toBe(true);
    expect(nextCallNumber("AgentList")).toBe(3);
  });

  it("says a write tool's call may or may not have taken effect, counted once when it failed before running", async () => {
    const tools = createTools({
      conversationId: "c",
      nextCallNumber: counter(),
      onTasksChanged: () => {},
      mode: () => {
        throw new TypeError("Cannot read properties of undefined (reading 'mode')");
      },
    });
    const error = await Promise.resolve(
      tools.TaskCreate.execute!({ subject: "a", description: "b" }, callOptions),
    ).catch((e: Error) => e);
    expect(String(error)).toMatch(
      /^ToolExecutionError: TaskCreate failed inside Hintline: TypeError: Cannot read properties of undefined \(reading 'mode'\)\n/,
    );
    expect(String(error)).toContain("the call may or may not have taken effect: check the state");
    expect(String(error).endsWith("(Tool call #1 for 'TaskCreate' in this conversation.)")).toBe(true);
  });

  it("passes a stopped call's error on as it was: the stop's, not a fault of the tool", async () => {
    const stop = new AbortController();
    const aborted = Object.assign(new Error("This operation was aborted"), { name: "AbortError" });
    const tools = createTools({
      conversationId: "c",
      nextCallNumber: counter(),
      onTasksChanged: () => {},
      mode: () => {
        stop.abort();
        throw aborted;
      },
    });
    const options = { toolCallId: "c", messages: [], abortSignal: stop.signal } as never;
    const error = await Promise.resolve(tools.TaskCreate.execute!({ subject: "a", description: "b" }, options)).catch(
      (e: Error) => e,
    );
    expect(error).toBe(aborted);
  });
});

describe("subagents off (HINTLINE_MAX_AGENT_DEPTH=0), and a subagent at the maximum depth", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("offers no agent tools, and every other tool as before", () => {
    const ctx = { conversationId: "", nextCallNumber: () => 0, onTasksChanged: () => {} };
    expect(Object.keys(createTools(ctx))).toEqual(TOOL_NAMES);
    expect(offeredToolNames()).toEqual(TOOL_NAMES);
    vi.stubEnv("HINTLINE_MAX_AGENT_DEPTH", "0");
    expect(Object.keys(createTools(ctx))).toEqual(TOOL_NAMES.filter((n) => !n.startsWith("Agent")));
    expect(offeredToolNames()).toEqual(TOOL_NAMES.filter((n) => !n.startsWith("Agent")));
  });

  it("leaves the agent tools out of a conversation that cannot spawn, a child's own list as well", () => {
    const ctx = { conversationId: "", nextCallNumber: () => 0, onTasksChanged: () => {} };
    const own = ["TaskList", "AgentSpawn", "SkillLoad"];
    expect(Object.keys(createTools(ctx, own, true))).toEqual(["TaskList", "SkillLoad", "AgentSpawn"]);
    expect(Object.keys(createTools(ctx, own, false))).toEqual(["TaskList", "SkillLoad"]);
    expect(offeredToolNames(undefined, false)).toEqual(TOOL_NAMES.filter((n) => !n.startsWith("Agent")));
    // At the default HINTLINE_MAX_AGENT_DEPTH (2) a child may spawn and a grandchild may not.
    expect([0, 1, 2].map(spawnsAt)).toEqual([true, true, false]);
  });
});

describe("the tools' schemas across replies", () => {
  it("are the same objects in every reply's tool set, so their JSON Schema is made once per process", () => {
    const ctx = () => ({ conversationId: "c", nextCallNumber: () => 0, onTasksChanged: () => {} });
    const first = createTools(ctx());
    const second = createTools(ctx());
    for (const name of Object.keys(first) as Array<keyof typeof first>) {
      expect(second[name].inputSchema, name).toBe(first[name].inputSchema);
    }
    expect(Object.keys(first)).toContain("AgentSpawn");
  });
});

describe("a call of a tool that does not exist", () => {
  const call = (offered: readonly string[] | undefined, toolName: string) =>
    unknownToolError(() => 1, offered)({ toolName, input: {} }).message;

  it("lists the tools this reply offers, its MCP tools among them, and names a near one", () => {
    const offered = ["TaskCreate", "TaskList", "mcp__files__read_file", "mcp__files__write_file"];
    const text = call(offered, "mcp__files__Read-File");
    expect(text).toMatch(
      /^UnknownToolError: There is no tool named "mcp__files__Read-File", so nothing was run\. The tools are: TaskCreate, TaskList, mcp__files__read_file, mcp__files__write_file\.\n/,
    );
    expect(text).toContain("What to do: Did you mean mcp__files__read_file? ");
    // Not the global catalogue: a subagent's reply offers only its own.
    expect(call(["TaskList"], "AgentSpawn")).toMatch(/The tools are: TaskList\.\n/);
    expect(call([], "Anything")).toContain("This reply offers no tools.");
    expect(call(undefined, "Nope")).toContain(`The tools are: ${TOOL_NAMES.join(", ")}.`);
  });

  it("lists at most the first names of a long list and counts the rest", () => {
    const offered = [...TOOL_NAMES, ...Array.from({ length: 128 }, (_, i) => `mcp__many__tool_${i}`)];
    const text = call(offered, "mcp__many__tool_500");
    const listed = /The tools are: (.*?), and (\d+) more \(every one is in your tool definitions\)\./.exec(text);
    expect(listed?.[1]?.split(", ")).toEqual(offered.slice(0, UNKNOWN_TOOL_NAMES_SHOWN));
    expect(Number(listed?.[2])).toBe(offered.length - UNKNOWN_TOOL_NAMES_SHOWN);
    expect(text).not.toContain("Did you mean");
  });
});
