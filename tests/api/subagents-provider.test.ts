// Subagents against the real HTTP fake of the OpenAI API, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: two
// AgentSpawn calls in one step run in parallel while the parent goes on, and every parent request stays an append-only
// extension of the one before with a byte-identical system prompt and tool list — also when the children's answers
// come back as a Subagents hint; a synchronous spawn whose time runs out goes on in the background; AgentSend follows
// up in the child's own context; an unknown agent id gets the ids that exist; a child whose provider fails ends as
// "error" with a clear result (or one hint, in the background) while the parent's reply completes; AgentList names the
// children and the free slots; a child's requests carry its task and none of the parent's history; at most four children
// run at once; a reply makes at most HINTLINE_MAX_STEPS calls; a grandchild (the maximum depth) is offered no agent
// tools and its system prompt no Subagents section.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import {
  type FakeReply,
  type OpenAIFake,
  type RecordedRequest,
  startOpenAIFake,
  toolResultText,
} from "../support/openai-fake.ts";
import { databaseKinds, pollUntil } from "./helpers.ts";

type WireMessage = { role: string; content: unknown; tool_calls?: Array<{ id: string }> };
type Agent = {
  agentKey: string;
  label?: string;
  conversationId: string;
  status: string;
  startedAt: string;
  endedAt?: string;
};
type View = {
  agents: Agent[];
  messages: Array<{ parts: Array<{ type: string; data?: { source?: { sublabel?: string }; text?: string } }> }>;
};

const kinds = databaseKinds("subagents_provider");
const messagesOf = (r: RecordedRequest) => (r.body.messages ?? []) as WireMessage[];
const contentOf = (m: WireMessage | undefined) =>
  typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");
const isChild = (r: RecordedRequest) => contentOf(messagesOf(r)[0]).includes("\n\n# Agent: ");
const lastPersonText = (r: RecordedRequest) =>
  contentOf(messagesOf(r).findLast((m) => m.role === "user" && !contentOf(m).startsWith("<system-reminder>")));

let loops = 0;

/** Parent: scripted by the person's newest message; child: answers its task (slowly when the task says so). */
function route(req: RecordedRequest): FakeReply {
  const said = lastPersonText(req);
  if (isChild(req)) {
    if (said === "tool then slow") {
      const last = messagesOf(req).at(-1);
      if (last?.role !== "tool")
        return { kind: "tools", calls: [{ id: "child-list", name: "TaskList", arguments: {} }] };
      return { text: "Listed the tasks and now writing a slow and careful summary of them all.", chunkDelayMs: 400 };
    }
    if (said.startsWith("fail"))
      return {
        kind: "http-error",
        status: 401,
        body: {
          error: {
            message: "Incorrect API key provided for the child.",
            type: "authentication_error",
            param: null,
            code: "401",
          },
        },
      };
    if (said.startsWith("slow"))
      return { text: "Slow child answer after a long look at every file.", chunkDelayMs: 400 };
    if (said === "which file?") return { text: "It was notes/rivers.md." };
    if (said === "spawn a grandchild") {
      if (messagesOf(req).at(-1)?.role === "tool") return { text: "The grandchild answered." };
      return {
        kind: "tools",
        calls: [
          { id: "spawn-deep", name: "AgentSpawn", arguments: { agent_id: "general-purpose", task: "deepest task" } },
        ],
      };
    }
    if (said === "walk forever") {
      // A provider honours tool_choice "none": the last call it may make answers in words.
      if (req.body.tool_choice === "none") return { text: "Stopped walking." };
      return { kind: "tools", calls: [{ id: `walk-${loops++}`, name: "TaskList", arguments: {} }] };
    }
    if (said.startsWith("write task ")) {
      // One TaskCreate, then a line that says how it went (the mode decides: written, or refused while planning).
      const last = messagesOf(req).findLast(
        (m) => !(m.role === "user" && contentOf(m).startsWith("<system-reminder>")),
      );
      if (last?.role === "tool") return { text: "Done with the task list." };
      return {
        kind: "tools",
        calls: [
          {
            id: `child-${said.slice(11)}`,
            name: "TaskCreate",
            arguments: { subject: said.slice(11), description: "from the parent" },
          },
        ],
      };
    }
    return { text: `Child answer for ${said}.`, chunkDelayMs: 40 };
  }
  if (said === "loop forever") {
    if (req.body.tool_choice === "none") return { text: "Here is what I have so far." };
    return { kind: "tools", calls: [{ id: `loop-${loops++}`, name: "TaskList", arguments: {} }] };
  }
  // A provider that ignores tool_choice: it calls a tool on the last call too.
  if (said === "loop and ignore")
    return { kind: "tools", calls: [{ id: `ignore-${loops++}`, name: "TaskList", arguments: {} }] };
  // A reminder may follow the tool results (a child that finished at once): the step answers the results.
  const last = messagesOf(req).findLast((m) => !(m.role === "user" && contentOf(m).startsWith("<system-reminder>")));
  if (last?.role === "tool") return { text: "Noted." };
  if (said === "start two helpers") {
    return {
      kind: "tools",
      calls: [
        {
          id: "spawn-a",
          name: "AgentSpawn",
          arguments: { agent_id: "general-purpose", task: "count the rivers", label: "rivers", timeout_seconds: 0 },
        },
        {
          id: "spawn-b",
          name: "AgentSpawn",
          arguments: { agent_id: "general-purpose", task: "count the lakes", label: "lakes", timeout_seconds: 0 },
        },
      ],
    };
  }
  if (said === "slow one")
    return {
      kind: "tools",
      calls: [
        {
          id: "spawn-slow",
          name: "AgentSpawn",
          arguments: { agent_id: "general-purpose", task: "slow look", timeout_seconds: 1 },
        },
      ],
    };
  if (said === "start the short walker") {
    return {
      kind: "tools",
      calls: [
        { id: "spawn-walker", name: "AgentSpawn", arguments: { agent_id: "short-walker", task: "walk forever" } },
      ],
    };
  }
  if (said === "start the writer")
    return {
      kind: "tools",
      calls: [
        {
          id: "spawn-writer",
          name: "AgentSpawn",
          arguments: { agent_id: "general-purpose", task: "write task alpha", label: "writer" },
        },
      ],
    };
  if (said === "send the writer")
    return {
      kind: "tools",
      calls: [{ id: "send-writer", name: "AgentSend", arguments: { label: "writer", message: "write task gamma" } }],
    };
  if (said === "quick background") {
    return {
      kind: "tools",
      calls: [
        {
          id: "spawn-hills",
          name: "AgentSpawn",
          arguments: { agent_id: "general-purpose", task: "count the hills", label: "hills", timeout_seconds: 0 },
        },
      ],
    };
  }
  if (said === "ask it")
    return {
      kind: "tools",
      calls: [{ id: "send-1", name: "AgentSend", arguments: { label: "quick", message: "which file?" } }],
    };
  if (said === "quick one")
    return {
      kind: "tools",
      calls: [
        {
          id: "spawn-quick",
          name: "AgentSpawn",
          arguments: { agent_id: "general-purpose", task: "find the file", label: "quick" },
        },
      ],
    };
  if (said === "busy one") {
    return {
      kind: "tools",
      calls: [
        {
          id: "spawn-busy",
          name: "AgentSpawn",
          arguments: { agent_id: "general-purpose", task: "tool then slow", label: "busy", timeout_seconds: 0 },
        },
      ],
    };
  }
  if (said === "failing one")
    return {
      kind: "tools",
      calls: [
        {
          id: "spawn-fail",
          name: "AgentSpawn",
          arguments: { agent_id: "general-purpose", task: "fail now", label: "failing" },
        },
      ],
    };
  if (said === "failing in background") {
    return {
      kind: "tools",
      calls: [
        {
          id: "spawn-fail-bg",
          name: "AgentSpawn",
          arguments: { agent_id: "general-purpose", task: "fail later", label: "failing bg", timeout_seconds: 0 },
        },
      ],
    };
  }
  if (said === "quick lookup")
    return {
      kind: "tools",
      calls: [
        {
          id: "spawn-lookup",
          name: "AgentSpawn",
          arguments: { agent_id: "general-purpose", task: "look up the river list", label: "lookup" },
        },
      ],
    };
  if (said === "list agents") return { kind: "tools", calls: [{ id: "list-1", name: "AgentList", arguments: {} }] };
  if (said === "start five") {
    // Five background spawns in one step: four slots, so exactly one is refused whichever runs last.
    return {
      kind: "tools",
      calls: ["one", "two", "three", "four", "five"].map((n) => ({
        id: `spawn-${n}`,
        name: "AgentSpawn",
        arguments: { agent_id: "general-purpose", task: `slow count ${n}`, label: n, timeout_seconds: 0 },
      })),
    };
  }
  if (said === "start one more")
    return {
      kind: "tools",
      calls: [
        {
          id: "spawn-six",
          name: "AgentSpawn",
          arguments: { agent_id: "general-purpose", task: "count six", label: "six" },
        },
      ],
    };
  if (said === "start the spawner")
    return {
      kind: "tools",
      calls: [
        {
          id: "spawn-spawner",
          name: "AgentSpawn",
          arguments: { agent_id: "general-purpose", task: "spawn a grandchild", label: "spawner" },
        },
      ],
    };
  if (said === "unknown agent")
    return {
      kind: "tools",
      calls: [{ id: "spawn-x", name: "AgentSpawn", arguments: { agent_id: "nope", task: "x" } }],
    };
  return { text: "ok" };
}

/** Every request of the parent `conversationId`'s replies extends the one before; same system prompt and tools. */
function expectAppendOnly(requests: RecordedRequest[], atLeast = 3) {
  expect(requests.length).toBeGreaterThanOrEqual(atLeast);
  for (let i = 1; i < requests.length; i++) {
    const [before, after] = [messagesOf(requests[i - 1]!), messagesOf(requests[i]!)];
    expect(after.slice(0, before.length), `request ${i + 1} extends request ${i}`).toEqual(before);
    expect(contentOf(after[0])).toBe(contentOf(before[0]));
    expect(JSON.stringify(requests[i]!.body.tools)).toBe(JSON.stringify(requests[i - 1]!.body.tools));
  }
}

describe.each(kinds)("$name: subagents with a provider", ({ databaseUrl }) => {
  let server: AppServer;
  let fake: OpenAIFake;
  beforeAll(async () => {
    fake = await startOpenAIFake();
    fake.setDefault(route);
    server = await startAppServer({ databaseUrl: await databaseUrl(), env: providerEnv(fake.url) });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });
  const view = async (id: string) => (await getJson<View>(`${server.url}/api/conversations/${id}`)).body;
  const parentRequests = (id: string) =>
    fake.requests.filter((r) => !isChild(r) && messagesOf(r).some((m) => contentOf(m) === `first message of ${id}`));

  it("runs parallel spawns while the parent's requests stay append-only with a byte-identical system prompt", async () => {
    const id = "sap-parallel";
    await chat(server.url, { conversationId: id, text: `first message of ${id}` });
    await chat(server.url, { conversationId: id, text: "start two helpers" });
    const done = await pollUntil(
      () => view(id),
      (v) => v.agents.length === 2 && v.agents.every((a) => a.status === "done"),
      30_000,
      "both children finished",
    );
    // Started in parallel: which one takes :1 is a race.
    const keyOf = (label: string) => done.agents.find((a) => a.label === label)?.agentKey;
    expect([keyOf("rivers"), keyOf("lakes")].sort()).toEqual(["agent:general-purpose:1", "agent:general-purpose:2"]);
    // They ran at the same time.
    const [a, b] = done.agents as [Agent, Agent];
    expect(Date.parse(a.startedAt)).toBeLessThan(Date.parse(b.endedAt!));
    expect(Date.parse(b.startedAt)).toBeLessThan(Date.parse(a.endedAt!));
    await chat(server.url, { conversationId: id, text: "what did they find?" });
    await chat(server.url, { conversationId: id, text: "thanks" });
    const requests = parentRequests(id);
    expectAppendOnly(requests);
    // OpenAI routes the prompt cache by prompt_cache_key: every parent call carries the conversation's id, every child
    // call its own child conversation's.
    expect(requests.map((r) => r.body.prompt_cache_key)).toEqual(requests.map(() => id));
    for (const [label, task] of [
      ["rivers", "count the rivers"],
      ["lakes", "count the lakes"],
    ]) {
      const childId = done.agents.find((a) => a.label === label)!.conversationId;
      const calls = fake.requests.filter((r) => isChild(r) && lastPersonText(r) === task);
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.map((r) => r.body.prompt_cache_key)).toEqual(calls.map(() => childId));
    }
    // Each answer came once, in a reminder on a step after it finished (both in one when they finished together).
    const told = messagesOf(requests.at(-1)!)
      .filter(
        (m) =>
          m.role === "user" &&
          contentOf(m).startsWith("<system-reminder>") &&
          contentOf(m).includes("finished in the background"),
      )
      .map(contentOf)
      .join("\n");
    for (const [label, answer] of [
      ["rivers", "count the rivers"],
      ["lakes", "count the lakes"],
    ]) {
      expect(
        told.split(
          `<subagent-answer agent_key="${keyOf(label!)}" label="${label}" status="done">\nChild answer for ${answer}.\n</subagent-answer>`,
        ),
      ).toHaveLength(2);
    }
    const spawned = requests.find((r) =>
      messagesOf(r).some((m) => m.role === "tool" && (m as { tool_call_id?: string }).tool_call_id === "spawn-a"),
    );
    expect(toolResultText(spawned, "spawn-a")).toMatch(
      new RegExp(`^agent_key: ${keyOf("rivers")}\nstatus: running \\(started in the background\\)`),
    );
  });

  it("a grandchild (the maximum depth) is offered no agent tools and its prompt no Subagents section; a child is", async () => {
    const id = "sap-depth";
    await chat(server.url, { conversationId: id, text: `first message of ${id}` });
    await chat(server.url, { conversationId: id, text: "start the spawner" });
    const asked = (task: string) => fake.requests.filter((r) => isChild(r) && lastPersonText(r) === task);
    const toolNames = (r: RecordedRequest) =>
      ((r.body.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);
    const [child, grandchild] = [asked("spawn a grandchild"), asked("deepest task")];
    expect(child).toHaveLength(2);
    expect(grandchild).toHaveLength(1);
    for (const request of child) {
      expect(toolNames(request)).toEqual(expect.arrayContaining(["AgentSpawn", "AgentSend", "AgentList"]));
      expect(contentOf(messagesOf(request)[0])).toMatch(/\n\n# Agent: general-purpose\n[\s\S]*\n\n# Subagents\n/);
    }
    const deepest = grandchild[0]!;
    expect(toolNames(deepest)).toContain("TaskList");
    expect(toolNames(deepest).filter((name) => name.startsWith("Agent"))).toEqual([]);
    expect(contentOf(messagesOf(deepest)[0])).not.toMatch(/# Subagents|AgentSpawn/);
    expect(toolResultText(child[1], "spawn-deep")).toContain("Child answer for deepest task.");
    // The inspector shows the same of each.
    const childId = (await view(id)).agents[0]!.conversationId;
    const grandchildId = (await view(childId)).agents[0]!.conversationId;
    type Context = { tools: string[]; sections: Array<{ id: string }> };
    const context = async (of: string) =>
      (await getJson<Context>(`${server.url}/api/conversations/${of}/context`)).body;
    const [ofChild, ofGrandchild] = [await context(childId), await context(grandchildId)];
    expect(ofChild.tools).toContain("AgentSpawn");
    expect(ofChild.sections.map((s) => s.id)).toContain("subagents");
    expect(ofGrandchild.tools.filter((name) => name.startsWith("Agent"))).toEqual([]);
    expect(ofGrandchild.sections.map((s) => s.id)).not.toContain("subagents");
  });

  it("a running child's tokens and last tool reach the parent's agents list after each of its steps", async () => {
    const id = "sap-progress";
    await chat(server.url, { conversationId: id, text: `first message of ${id}` });
    await chat(server.url, { conversationId: id, text: "busy one" });
    type Progress = { agents: Array<Agent & { tokens: number; lastTool?: string }> };
    const agents = async () => (await getJson<Progress>(`${server.url}/api/conversations/${id}/agents`)).body.agents;
    const midway = await pollUntil(
      agents,
      (a) => a[0]?.lastTool === "TaskList",
      20_000,
      "the child's first step was recorded",
    );
    expect(midway[0]).toMatchObject({ status: "running", label: "busy" });
    expect(midway[0]!.tokens).toBeGreaterThan(0);
    const done = await pollUntil(agents, (a) => a[0]?.status === "done", 30_000, "the child finished");
    // Its run's total counts each call once (the steps recorded while it ran are not added again).
    expect(done[0]!.tokens).toBeGreaterThan(midway[0]!.tokens);
    const childCalls = (
      await getJson<{ cache: { calls: Array<{ inputTokens: number; outputTokens: number }> } }>(
        `${server.url}/api/conversations/${done[0]!.conversationId}/context`,
      )
    ).body.cache.calls;
    expect(done[0]!.tokens).toBe(childCalls.reduce((sum, c) => sum + c.inputTokens + c.outputTokens, 0));
  });

  it("a child whose provider fails ends as error with a clear result; the parent's reply completes; told once", async () => {
    const id = "sap-fail";
    await chat(server.url, { conversationId: id, text: `first message of ${id}` });
    const reply = await chat(server.url, { conversationId: id, text: "failing one" });
    expect(reply.text).toBe("Noted.");
    const result = toolResultText(parentRequests(id).at(-1), "spawn-fail");
    expect(result).toMatch(
      /^agent_key: agent:general-purpose:1\nstatus: error\nerror: .*Incorrect API key provided for the child\./,
    );
    const [agent] = (await view(id)).agents;
    expect(agent).toMatchObject({ agentKey: "agent:general-purpose:1", label: "failing", status: "error" });
    expect(
      (
        await getJson<{ messages: Array<{ metadata?: { status?: string } }> }>(`${server.url}/api/conversations/${id}`)
      ).body.messages.at(-1)!.metadata?.status ?? "complete",
    ).toBe("complete");

    // In the background: its failure reaches the parent's next turn as one Subagents hint; a told synchronous one never.
    await chat(server.url, { conversationId: id, text: "failing in background" });
    await pollUntil(
      () => view(id),
      (v) => v.agents[1]?.status === "error",
      30_000,
      "the background child failed",
    );
    await chat(server.url, { conversationId: id, text: "and now?" });
    await chat(server.url, { conversationId: id, text: "and again?" });
    const hints = (await view(id)).messages
      .flatMap((m) => m.parts)
      .filter((p) => p.data?.source?.sublabel === "Subagents");
    expect(hints).toHaveLength(1);
    expect(hints[0]!.data!.text).toContain(
      '<subagent-answer agent_key="agent:general-purpose:2" label="failing bg" status="error"',
    );
    expect(hints[0]!.data!.text).not.toContain("agent:general-purpose:1 ");
    expectAppendOnly(parentRequests(id));
  });

  it("moves a synchronous spawn to the background when its time runs out; its answer comes as a hint", async () => {
    const id = "sap-timeout";
    await chat(server.url, { conversationId: id, text: `first message of ${id}` });
    await chat(server.url, { conversationId: id, text: "slow one" });
    const result = toolResultText(parentRequests(id).at(-1), "spawn-slow");
    expect(result).toMatch(
      /^agent_key: agent:general-purpose:1\nstatus: running \(no answer within 1 s, so it goes on in the background\)/,
    );
    await pollUntil(
      () => view(id),
      (v) => v.agents[0]?.status === "done",
      30_000,
      "the slow child finished",
    );
    await chat(server.url, { conversationId: id, text: "and now?" });
    const hints = (await view(id)).messages
      .flatMap((m) => m.parts)
      .filter((p) => p.data?.source?.sublabel === "Subagents");
    expect(hints).toHaveLength(1);
    expect(hints[0]!.data!.text).toContain("Slow child answer after a long look at every file.");
    expectAppendOnly(parentRequests(id));
  });

  it("follows up with AgentSend in the child's own context, and names the agent ids for an unknown one", async () => {
    const id = "sap-send";
    await chat(server.url, { conversationId: id, text: `first message of ${id}` });
    await chat(server.url, { conversationId: id, text: "quick one" });
    expect(toolResultText(parentRequests(id).at(-1), "spawn-quick")).toMatch(
      /^agent_key: agent:general-purpose:1\nstatus: done\nanswer:\nChild answer for find the file\./,
    );
    await chat(server.url, { conversationId: id, text: "ask it" });
    expect(toolResultText(parentRequests(id).at(-1), "send-1")).toMatch(
      /^agent_key: agent:general-purpose:1\nstatus: done\nanswer:\nIt was notes\/rivers\.md\./,
    );
    // The child's second request extends its first: it kept its context.
    const childRequests = fake.requests.filter(
      (r) => isChild(r) && messagesOf(r).some((m) => contentOf(m) === "find the file"),
    );
    expect(childRequests).toHaveLength(2);
    expectAppendOnly(childRequests, 2);
    await chat(server.url, { conversationId: id, text: "unknown agent" });
    expect(toolResultText(parentRequests(id).at(-1), "spawn-x")).toMatch(
      /^AgentNotFoundError: There is no agent with the id "nope"\. The agent ids are: general-purpose\.\nError type|^AgentNotFoundError: There is no agent with the id "nope"\. The agent ids are: general-purpose\.\nArguments sent/,
    );
    expectAppendOnly(parentRequests(id));
  });

  it("a child plans exactly while the person's conversation plans, at every step, and is told so in a child's words", async () => {
    const patchMode = (id: string, mode: string) =>
      fetch(`${server.url}/api/conversations/${id}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ mode }),
      });
    const taskSubjects = async (id: string) => {
      const childId = (await view(id)).agents[0]!.conversationId;
      return (
        (await getJson<{ tasks: Array<{ subject: string }> }>(`${server.url}/api/conversations/${childId}`)).body
          .tasks ?? []
      ).map((t) => t.subject);
    };
    /** The child's requests of one parent turn: its reminders, and the result of its TaskCreate. */
    const childTurn = async (id: string, text: string, mode?: string) => {
      const from = fake.requests.length;
      const message = { id: `m-${id}-${from}`, role: "user", parts: [{ type: "text", text }] };
      await fetch(`${server.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id, message, ...(mode ? { mode } : {}) }),
      }).then((r) => r.text());
      const child = fake.requests.slice(from).filter(isChild);
      const reminders = messagesOf(child[0]!)
        .map(contentOf)
        .filter((c) => c.startsWith("<system-reminder>"));
      const callId = `child-${text === "start the writer" ? "alpha" : "gamma"}`;
      return {
        told: reminders.join("\n"),
        // The first request that carries the result (a tasks reminder may follow it: the child changed its tasks).
        result: toolResultText(
          child.find((r) => messagesOf(r).some((m) => (m as { tool_call_id?: string }).tool_call_id === callId)),
          callId,
        ),
      };
    };

    // Spawned while planning: refused, and told as a child (report findings; no PlanWrite, which it does not have).
    const approved = "sap-plan-approved";
    const spawned = await childTurn(approved, "start the writer", "plan");
    expect(spawned.told).toContain("PLAN MODE is active (read-only) in the conversation that started you");
    expect(spawned.told).not.toContain("PlanWrite");
    expect(spawned.result).toMatch(/PlanModeError/);
    expect(spawned.result).not.toContain("PlanWrite");
    expect(await taskSubjects(approved)).toEqual([]);
    // The person approves the plan: the same child, sent more work, may write now, and is told so.
    expect((await patchMode(approved, "build")).status).toBe(200);
    const sent = await childTurn(approved, "send the writer");
    expect(sent.told).toContain("The plan was approved and BUILD mode is on again");
    expect(await taskSubjects(approved)).toEqual(["gamma"]);

    // Spawned while building, then the person plans: the child's next run is refused, and told why.
    const later = "sap-plan-later";
    expect((await childTurn(later, "start the writer")).result).toMatch(/Task \(id=1\) created successfully/);
    expect((await patchMode(later, "plan")).status).toBe(200);
    const refused = await childTurn(later, "send the writer");
    expect(refused.told).toContain("PLAN MODE is active (read-only) in the conversation that started you");
    expect(refused.result).toMatch(/PlanModeError/);
    expect(await taskSubjects(later)).toEqual(["alpha"]);
  });

  it("tells a background child's answer again when the reply that carried it is regenerated, and once per branch", async () => {
    const id = "sap-regenerate";
    const answer = "Child answer for count the hills.";
    const post = async (text: string, messageId: string) => {
      const from = fake.requests.length;
      const response = await fetch(`${server.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id, message: { id: messageId, role: "user", parts: [{ type: "text", text }] } }),
      });
      expect(response.status).toBe(200);
      await response.text();
      const own = fake.requests.slice(from).filter((r) => !isChild(r));
      return own.at(-1)!;
    };
    const told = (r: RecordedRequest) =>
      messagesOf(r).filter((m) =>
        contentOf(m).includes(`<subagent-answer agent_key="agent:general-purpose:1" label="hills"`),
      ).length;
    await post(`first message of ${id}`, "rg-0");
    await post("quick background", "rg-1");
    await pollUntil(
      () => view(id),
      (v) => v.agents[0]?.status === "done",
      30_000,
      "the background child finished",
    );
    // Told once, in a frame of its own after the reminder.
    const first = await post("what did it find?", "rg-2");
    expect(told(first)).toBe(1);
    expect(
      messagesOf(first)
        .map(contentOf)
        .find((c) => c.includes("<subagent-answer")),
    ).toContain(answer);
    // Regenerated: the reply that carried it is gone from the input, so it is told again.
    const again = await post("what did it find?", "rg-2");
    expect(told(again)).toBe(1);
    // Told once per branch: the next turn of each version does not tell it anew.
    expect(told(await post("and then?", "rg-3"))).toBe(1);
    expect(
      (
        await fetch(`${server.url}/api/conversations/${id}/branches`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ anchorId: "rg-2", ordinal: 1 }),
        })
      ).status,
    ).toBe(200);
    expect(told(await post("and now?", "rg-4"))).toBe(1);
  });

  it("AgentList names the children, their status and the free slots; a child sees its task, not the parent's history", async () => {
    const id = "sap-list";
    await chat(server.url, { conversationId: id, text: `first message of ${id}` });
    await chat(server.url, { conversationId: id, text: "the launch code is PINEAPPLE-7, keep it between us" });
    await chat(server.url, { conversationId: id, text: "quick lookup" });
    await chat(server.url, { conversationId: id, text: "list agents" });
    const listed = toolResultText(parentRequests(id).at(-1), "list-1");
    expect(listed).toMatch(/^Agents of this conversation \(1\):\nagent:general-purpose:1 \[done\] "lookup" — \d+ s, /);
    expect(listed).toContain("Slots: 0 of 4 agents running in this conversation, 4 free.");
    expect(listed).toMatch(/Agent ids you can spawn: general-purpose[,.]/);
    // The child's every request: its own prompt, its task and its reminders — none of the parent's words.
    const childRequests = fake.requests.filter(
      (r) => isChild(r) && messagesOf(r).some((m) => contentOf(m) === "look up the river list"),
    );
    expect(childRequests.length).toBeGreaterThanOrEqual(1);
    for (const request of childRequests) {
      const wire = JSON.stringify(request.body.messages);
      expect(wire).not.toContain("PINEAPPLE-7");
      expect(wire).not.toContain(`first message of ${id}`);
      const words = messagesOf(request).filter(
        (m) => m.role === "user" && !contentOf(m).startsWith("<system-reminder>"),
      );
      expect(words.map(contentOf)).toEqual(["look up the river list"]);
    }
  });

  it("runs at most four children at once: a fifth spawn is refused with the slots, and a freed slot is used again", async () => {
    const id = "sap-four";
    await chat(server.url, { conversationId: id, text: `first message of ${id}` });
    await chat(server.url, { conversationId: id, text: "start five" });
    const results = ["one", "two", "three", "four", "five"].map((n) =>
      toolResultText(parentRequests(id).at(-1), `spawn-${n}`),
    );
    const refused = results.filter((r) => r.startsWith("AgentSlotsError: 4 agents are running in this conversation"));
    expect(refused).toHaveLength(1);
    expect(results.filter((r) => /^agent_key: agent:general-purpose:\d\nstatus: running/.test(r))).toHaveLength(4);
    const running = await view(id);
    expect(running.agents.filter((a) => a.status === "running")).toHaveLength(4);
    await pollUntil(
      () => view(id),
      (v) => v.agents.length === 4 && v.agents.every((a) => a.status === "done"),
      30_000,
      "the four children finished",
    );
    await chat(server.url, { conversationId: id, text: "start one more" });
    expect(toolResultText(parentRequests(id).at(-1), "spawn-six")).toMatch(
      /^agent_key: agent:general-purpose:5\nstatus: done/,
    );
  });

  it("makes at most HINTLINE_MAX_STEPS calls, or an agent's maxSteps: the last offers no tool choice and says so", async () => {
    const id = "sap-steps";
    await chat(server.url, { conversationId: id, text: `first message of ${id}` });
    const from = fake.requests.length;
    const { text } = await chat(server.url, { conversationId: id, text: "loop forever" });
    expect(text).toContain("Here is what I have so far.");
    const calls = fake.requests.slice(from).filter((r) => !isChild(r));
    // 20 calls by default; the tool list is the same in the last, which may call none of them and is told why.
    expect(calls).toHaveLength(20);
    expect(calls.slice(0, 19).every((r) => r.body.tool_choice !== "none")).toBe(true);
    expect(calls[19]!.body.tool_choice).toBe("none");
    expect(JSON.stringify(calls[19]!.body.tools)).toBe(JSON.stringify(calls[0]!.body.tools));
    expect(contentOf(messagesOf(calls[19]!).at(-1))).toMatch(
      /^<system-reminder>\nThis is the last model call this reply may make \(20 in all\)/,
    );
    const reply = (
      await getJson<{ messages: Array<{ metadata?: { stepLimit?: number; status?: string } }> }>(
        `${server.url}/api/conversations/${id}`,
      )
    ).body.messages.at(-1)!;
    expect(reply.metadata).toMatchObject({ stepLimit: 20 });
    expect(reply.metadata?.status ?? "complete").toBe("complete");

    // A provider that ignores tool_choice "none": the call it makes anyway is not run, and the reply still completes.
    const before = fake.requests.length;
    await chat(server.url, { conversationId: id, text: "loop and ignore" });
    expect(fake.requests.slice(before).filter((r) => !isChild(r))).toHaveLength(20);
    const ignored = (
      await getJson<{
        messages: Array<{
          parts: Array<{ type: string }>;
          metadata?: { stepLimit?: number; status?: string; error?: string };
        }>;
      }>(`${server.url}/api/conversations/${id}`)
    ).body.messages.at(-1)!;
    expect(ignored.metadata).toMatchObject({ stepLimit: 20 });
    expect(ignored.metadata?.error).toBeUndefined();
    expect(ignored.metadata?.status ?? "complete").toBe("complete");
    expect(ignored.parts.filter((p) => p.type === "tool-TaskList")).toHaveLength(19);

    // An agent's own limit: its child's second call is its last, and its answer comes back in words.
    const agents = `${server.url}/api/workspaces/default/agents`;
    const define = (maxSteps: unknown) =>
      fetch(agents, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: "short-walker", description: "Walks", instructions: "Walk.", maxSteps }),
      });
    for (const bad of [0, 101, 2.5, "2"]) {
      const refused = await define(bad);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await refused.json())).toContain("maxSteps");
    }
    expect((await define(2)).status).toBe(201);
    const start = fake.requests.length;
    await chat(server.url, { conversationId: id, text: "start the short walker" });
    const child = fake.requests.slice(start).filter(isChild);
    expect(child.map((r) => r.body.tool_choice ?? "auto")).toEqual(["auto", "none"]);
    expect(toolResultText(fake.requests.filter((r) => !isChild(r)).at(-1), "spawn-walker")).toMatch(
      /status: done\nanswer:\nStopped walking\./,
    );
  });
});
