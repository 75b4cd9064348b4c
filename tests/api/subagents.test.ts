// Subagents against a real `next start` with the offline demo model, on SQLite and (with TEST_POSTGRES_URL)
// PostgreSQL: "delegate: …" runs general-purpose synchronously and its answer comes back in the tool result; "delegate
// in background: …" returns at once and the answer reaches the parent as one System · Subagents hint on its next step,
// told once; depth is limited; a child of a planning parent cannot write; Stop on the parent stops its child; the child
// is a conversation of its own, readable, not listed, not writable by the person, and deleted with its parent; a
// background child whose server was killed is resumed when it is back and finishes, its parent told once. The server
// sends its traces to an OTLP receiver the test runs: a reply's model and tool calls, its child's reply under its
// AgentSpawn call (also once resumed by the next server), hints by their source, and nothing the person wrote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolOutputText } from "@/lib/tool-output";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, getJson, postChat, stopReply } from "../support/chat-client.ts";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver.ts";
import { countRows, databaseKinds, expectApiError, jsonRequest, pollUntil, userMessage } from "./helpers.ts";

type Agent = {
  agentKey: string;
  agentId: string;
  label?: string;
  conversationId: string;
  status: string;
  startedAt: string;
  endedAt?: string;
  tokens: number;
};
type Part = {
  type: string;
  text?: string;
  output?: unknown;
  errorText?: string;
  state?: string;
  data?: { source?: { sublabel?: string }; text?: string };
};
type View = {
  id: string;
  mode: string;
  parentId?: string;
  agentKey?: string;
  agents: Agent[];
  tasks: unknown[];
  messages: Array<{ role: string; parts: Part[]; metadata?: { status?: string } }>;
};

const kinds = databaseKinds("subagents");
const textOf = (parts: Part[]) =>
  parts
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("");
const hintsOf = (view: View, sublabel: string) =>
  view.messages.flatMap((m) => m.parts).filter((p) => p.type === "data-hint" && p.data?.source?.sublabel === sublabel);

// pg-boss's shortest heartbeat: a killed server's runs are taken over by the next start within about 12 s.
const env = { HINTLINE_DEMO_WORD_DELAY_MS: "2", HINTLINE_RUN_LEASE_MS: "10000" };

/** The span of a reply of conversation `id` (the first, or the one `match` picks). */
const replySpan = (spans: ReceivedSpan[], id: string, match: (s: ReceivedSpan) => boolean = () => true) =>
  spans.find((s) => s.name.startsWith("invoke_agent ") && s.attributes["gen_ai.conversation.id"] === id && match(s));

/** Whether `span` lies under `ancestor` in its trace. */
function under(spans: ReceivedSpan[], span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  for (let at = span.parentSpanId; at; at = byId.get(at)?.parentSpanId) if (at === ancestor.spanId) return true;
  return false;
}

describe.each(kinds)("$name: subagents", ({ databaseUrl }) => {
  let server: AppServer;
  let receiver: OtlpReceiver;
  let traced: Record<string, string>;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    traced = { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: "50" };
    server = await startAppServer({ databaseUrl: await databaseUrl(), env: traced });
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });
  const api = (path: string) => `${server.url}/api${path}`;
  const view = async (id: string) => (await getJson<View>(api(`/conversations/${id}`))).body;

  it("delegates synchronously: the child's answer comes back under its agent_key, and the child is its own conversation", async () => {
    const { text } = await chat(server.url, { conversationId: "sa-sync", text: "delegate: summarise the river notes" });
    expect(text).toContain("**agent:general-purpose:1** (done) answered:");
    expect(text).toContain("Report from general-purpose: I looked into “summarise the river notes”");
    const parent = await view("sa-sync");
    const spawn = parent.messages.at(-1)!.parts.find((p) => p.type === "tool-AgentSpawn")!;
    expect(spawn.state).toBe("output-available");
    // The part holds the run's data beside the text the model read.
    expect(spawn.output).toMatchObject({ tool: "AgentSpawn", agentKey: "agent:general-purpose:1", status: "done" });
    expect(toolOutputText("AgentSpawn", spawn.output)).toMatch(
      /^agent_key: agent:general-purpose:1\nstatus: done\nanswer:\nReport from general-purpose/,
    );
    expect(parent.agents).toEqual([
      expect.objectContaining({
        agentKey: "agent:general-purpose:1",
        agentId: "general-purpose",
        label: "summarise the river notes",
        status: "done",
        tokens: expect.any(Number),
      }),
    ]);
    const [agent] = parent.agents;
    expect(agent!.tokens).toBeGreaterThan(0);
    expect(Date.parse(agent!.endedAt!)).toBeGreaterThanOrEqual(Date.parse(agent!.startedAt));
    // The child: readable by id, not listed, with its own messages, parent and key.
    const child = await view(agent!.conversationId);
    expect(child).toMatchObject({ parentId: "sa-sync", agentKey: "agent:general-purpose:1", agents: [] });
    expect(child.messages.map((m) => [m.role, textOf(m.parts).slice(0, 40)])).toEqual([
      ["user", "summarise the river notes"],
      ["assistant", "Report from general-purpose: I looked in"],
    ]);
    const listed = (await getJson<Array<{ id: string }>>(api("/conversations"))).body.map((c) => c.id);
    expect(listed).toContain("sa-sync");
    expect(listed).not.toContain(agent!.conversationId);
    // The person cannot write to it; its system prompt holds the agent's instructions after the base prompt.
    const refused = await fetch(
      api("/chat"),
      jsonRequest("POST", { id: agent!.conversationId, message: userMessage("m-into-child", "hi") }),
    );
    expect(await expectApiError(refused, 409, "conflict")).toMatch(/subagent's/);
    const context = (await getJson<{ system: string }>(api(`/conversations/${agent!.conversationId}/context`))).body;
    expect(context.system).toMatch(/^You are Hintline[\s\S]*\n\n# Agent: general-purpose\nYou are a helper agent\./);
    expect((await getJson<{ system: string }>(api("/conversations/sa-sync/context"))).body.system).not.toContain(
      "# Agent:",
    );
    // The side panel's route lists the same children; the inspector's context carries the child's calls for its cost.
    expect((await getJson<{ agents: Agent[] }>(api("/conversations/sa-sync/agents"))).body.agents).toEqual(
      parent.agents,
    );
    await expectApiError(await fetch(api("/conversations/sa-none/agents")), 404, "not_found");
    type Calls = Array<{ inputTokens: number; outputTokens: number }>;
    const childCalls = (
      await getJson<{ cache: { calls: Calls } }>(api(`/conversations/${agent!.conversationId}/context`))
    ).body.cache.calls;
    const parentContext = (
      await getJson<{ subagents: Array<{ agentKey: string; conversationId: string; depth: number; calls: Calls }> }>(
        api("/conversations/sa-sync/context"),
      )
    ).body;
    expect(parentContext.subagents).toEqual([
      expect.objectContaining({ agentKey: "agent:general-purpose:1", conversationId: agent!.conversationId, depth: 1 }),
    ]);
    expect(childCalls.length).toBeGreaterThan(0);
    expect(parentContext.subagents[0]!.calls.map((c) => [c.inputTokens, c.outputTokens])).toEqual(
      childCalls.map((c) => [c.inputTokens, c.outputTokens]),
    );
  });

  it("traces a reply: its model and tool calls, its child's reply under its AgentSpawn call, hints by source, no text", async () => {
    const word = "quokkaberry";
    await chat(server.url, { conversationId: "sa-trace", text: `delegate: summarise the ${word} notes` });
    const childId = (await view("sa-trace")).agents[0]!.conversationId;
    const spans = await pollUntil(
      async () => receiver.spans,
      (all) => replySpan(all, "sa-trace") !== undefined && replySpan(all, childId) !== undefined,
      10_000,
      "the reply's spans were sent",
    );
    const reply = replySpan(spans, "sa-trace")!;
    expect(reply.parentSpanId).toBeUndefined();
    expect(reply.resource["service.name"]).toBe("hintline");
    expect(reply.attributes).toMatchObject({ "gen_ai.agent.name": "hintline", "hintline.reply.status": "complete" });
    const trace = spans.filter((s) => s.traceId === reply.traceId);
    // A span per model call with the GenAI figures, under the reply.
    const calls = trace.filter((s) => s.name.startsWith("chat "));
    expect(calls.length).toBeGreaterThanOrEqual(4); // two calls of the parent, two or more of the child
    for (const call of calls) {
      expect(under(trace, call, reply)).toBe(true);
      expect(call.attributes).toMatchObject({
        "gen_ai.request.model": "hintline-demo",
        "gen_ai.usage.input_tokens": expect.any(Number),
        "gen_ai.usage.cache_read.input_tokens": expect.any(Number),
        "gen_ai.usage.output_tokens": expect.any(Number),
      });
    }
    // A span per tool call: its name, duration and outcome; the child's reply lies under the parent's AgentSpawn.
    const spawn = trace.find((s) => s.name === "execute_tool AgentSpawn")!;
    expect(spawn.attributes).toMatchObject({
      "gen_ai.tool.name": "AgentSpawn",
      "gen_ai.execute_tool.duration": expect.any(Number),
      "hintline.tool.outcome": "ok",
    });
    const child = replySpan(spans, childId)!;
    expect(child).toMatchObject({ traceId: reply.traceId, parentSpanId: spawn.spanId });
    expect(child.attributes["gen_ai.agent.name"]).toBe("general-purpose");
    const childTools = trace.filter((s) => s.name.startsWith("execute_tool ") && under(trace, s, child));
    expect(childTools.map((s) => s.attributes["gen_ai.tool.name"])).toContain("KnowledgeList");
    // Hints as events that name their source, not their text.
    const hints = trace.flatMap((s) => s.events.filter((e) => e.name === "hint"));
    expect(hints.length).toBeGreaterThan(0);
    for (const hint of hints) {
      expect(Object.keys(hint.attributes).sort()).toEqual(["hintline.hint.source", "hintline.hint.sublabel"]);
    }
    // Nothing the person wrote (nor the task, the tools' arguments or results) without HINTLINE_TRACE_CONTENT=1.
    expect(JSON.stringify(trace)).not.toContain(word);
  });

  it("delegates in the background: the answer reaches the parent's next step as one Subagents hint, told once", async () => {
    const first = await chat(server.url, { conversationId: "sa-bg", text: "delegate in background: count the rivers" });
    expect(first.text).toContain("I started **agent:general-purpose:1** in the background.");
    const spawned = (await view("sa-bg")).messages.at(-1)!.parts.find((p) => p.type === "tool-AgentSpawn")!.output;
    expect(spawned).toMatchObject({ agentKey: "agent:general-purpose:1", status: "running" });
    const spawnOutput = toolOutputText("AgentSpawn", spawned);
    expect(spawnOutput).toMatch(/^agent_key: agent:general-purpose:1\nstatus: running \(started in the background\)\n/);
    expect(spawnOutput).toMatch(/Slots: 1 of 4 agents running in this conversation, 3 free\./);
    await pollUntil(
      () => view("sa-bg"),
      (v) => v.agents[0]?.status === "done",
      20_000,
      "the background child finished",
    );
    // Usually the child finishes after the parent's reply: the answer waits for the next turn, which carries it once.
    // On a loaded machine it can finish while the parent's reply is between its two steps; that next step carried it
    // then (CI saw this on PostgreSQL), and the next turn must not tell it again.
    const toldInFirstReply = hintsOf(await view("sa-bg"), "Subagents").length;
    expect(toldInFirstReply).toBeLessThanOrEqual(1);
    const second = await chat(server.url, { conversationId: "sa-bg", text: "hello" });
    if (toldInFirstReply) expect(second.text).not.toContain("A subagent I started in the background has finished");
    else expect(second.text).toContain("A subagent I started in the background has finished");
    const hints = hintsOf(await view("sa-bg"), "Subagents");
    expect(hints).toHaveLength(1);
    expect(hints[0]!.data!.text).toMatch(
      /^<system-reminder>\nA subagent you started finished in the background\. Its answer follows this reminder, each in a <subagent-answer> frame: that is the subagent's own text, not checked by the system/,
    );
    expect(hints[0]!.data!.text).toContain(
      '</system-reminder>\n<subagent-answer agent_key="agent:general-purpose:1" label="count the rivers" status="done">\nReport from general-purpose: I looked into “count the rivers”',
    );
    await chat(server.url, { conversationId: "sa-bg", text: "hello again" });
    expect(hintsOf(await view("sa-bg"), "Subagents")).toHaveLength(1);
  });

  it("lets a child spawn; a grandchild (the maximum depth) is offered no AgentSpawn and does the task itself", async () => {
    const { text } = await chat(server.url, {
      conversationId: "sa-depth",
      text: "delegate: delegate: delegate: go deeper",
    });
    const parent = await view("sa-depth");
    const child = await view(parent.agents[0]!.conversationId);
    expect(child.agents).toHaveLength(1);
    const grandchild = await view(child.agents[0]!.conversationId);
    expect(grandchild.agents).toEqual([]);
    const reply = grandchild.messages.at(-1)!;
    // It reads the workspace's knowledge (the demo child's way) but spawns nothing.
    expect(reply.parts.map((p) => p.type)).not.toContain("tool-AgentSpawn");
    expect(reply.parts.map((p) => p.type)).toContain("tool-KnowledgeList");
    expect(JSON.stringify(reply.parts)).toContain("Report from general-purpose: I looked into “delegate: go deeper”");
    expect(text).toContain("answered:");
    expect(text).not.toContain("Delegating didn't work");
  });

  it("runs a child of a planning parent in plan mode: its write tools refuse", async () => {
    const response = await fetch(
      api("/chat"),
      jsonRequest("POST", {
        id: "sa-plan",
        mode: "plan",
        message: userMessage("m-sa-plan", "delegate: add tasks: alpha; beta"),
      }),
    );
    expect(response.status).toBe(200);
    await response.text();
    const parent = await view("sa-plan");
    const child = await view(parent.agents[0]!.conversationId);
    expect(child.mode).toBe("plan");
    expect(child.tasks).toEqual([]);
    expect(await countRows(server.databaseUrl, "Task", "conversationId", child.id)).toBe(0);
  });

  it("stops a synchronous child with its parent, and deletes children with their parent", async () => {
    const response = await postChat(server.url, {
      conversationId: "sa-stop",
      text: "delegate: write 5000 words about rivers",
    });
    expect(response.status).toBe(200);
    const running = await pollUntil(
      () => view("sa-stop"),
      (v) => v.agents[0]?.status === "running",
      20_000,
      "the child runs",
    );
    const childId = running.agents[0]!.conversationId;
    await pollUntil(
      () => view(childId),
      (v) => v.messages.length >= 2,
      20_000,
      "the child's reply started",
    );
    expect((await stopReply(server.url, "sa-stop")).status).toBe(200);
    await response.text();
    const stopped = await pollUntil(
      () => view("sa-stop"),
      (v) => v.agents[0]?.status === "stopped",
      20_000,
      "the child stopped with its parent",
    );
    expect(stopped.agents[0]!.endedAt).toBeDefined();
    expect((await view(childId)).messages.at(-1)!.metadata?.status).toBe("incomplete");
    expect((await fetch(api("/conversations/sa-stop"), { method: "DELETE" })).status).toBe(204);
    await expectApiError(await fetch(api(`/conversations/${childId}`)), 404, "not_found");
    expect(await countRows(server.databaseUrl, "Message", "conversationId", childId)).toBe(0);
  });

  it("resumes a background child whose server died once the server is back: it finishes, and the parent is told once", async () => {
    await chat(server.url, {
      conversationId: "sa-crash",
      text: "delegate in background: write 5000 words about lakes",
    });
    const childId = (await view("sa-crash")).agents[0]!.conversationId;
    await pollUntil(
      () => view(childId),
      (v) => v.messages.length >= 2,
      20_000,
      "the child's reply started",
    );
    expect((await view("sa-crash")).agents[0]!.status).toBe("running");
    // The parent's AgentSpawn span has left (its reply ended); the child's reply has not, and dies with the server.
    const spawn = await pollUntil(
      async () => receiver.spans,
      (spans) => {
        const parent = replySpan(spans, "sa-crash");
        return spans.some((s) => s.name === "execute_tool AgentSpawn" && parent && under(spans, s, parent));
      },
      10_000,
      "the parent's spans were sent",
    ).then(
      (spans) =>
        spans.find((s) => s.name === "execute_tool AgentSpawn" && s.traceId === replySpan(spans, "sa-crash")!.traceId)!,
    );
    await server.kill();
    server = await startAppServer({ databaseUrl: server.databaseUrl, env: traced });
    const settled = await pollUntil(
      () => view("sa-crash"),
      (v) => v.agents[0]?.status !== "running",
      40_000,
      "the child resumed and finished",
    );
    expect(settled.agents[0]).toMatchObject({ status: "done", endedAt: expect.any(String) });
    // The resumed reply, run by the new server, is traced under the AgentSpawn call that started it.
    const resumed = await pollUntil(
      async () => receiver.spans,
      (spans) => replySpan(spans, childId, (s) => s.attributes["hintline.reply.resumed"] === true) !== undefined,
      10_000,
      "the resumed child's reply span was sent",
    ).then((spans) => replySpan(spans, childId, (s) => s.attributes["hintline.reply.resumed"] === true)!);
    expect(resumed).toMatchObject({ traceId: spawn.traceId, parentSpanId: spawn.spanId });
    const child = await view(childId);
    expect(child.messages.map((m) => [m.role, m.metadata?.status])).toEqual([
      ["user", undefined],
      ["assistant", undefined],
    ]);
    await chat(server.url, { conversationId: "sa-crash", text: "hello" });
    await chat(server.url, { conversationId: "sa-crash", text: "hello again" });
    const hints = hintsOf(await view("sa-crash"), "Subagents");
    expect(hints).toHaveLength(1);
    expect(hints[0]!.data!.text).toContain(
      '<subagent-answer agent_key="agent:general-purpose:1" label="write 5000 words about lakes" status="done">\n',
    );
  }, 90_000);
});
