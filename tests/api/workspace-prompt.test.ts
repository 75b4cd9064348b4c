// A conversation's workspace in its model calls, through the real server and the HTTP fake of the OpenAI API, on
// SQLite and (with TEST_POSTGRES_URL) PostgreSQL: the system prompt holds the workspace as it was when the
// conversation first replied and stays byte-identical while the workspace changes; each change reaches the agent once,
// as a "Workspace" hint on its next call; the agent is not told about its own memory entry; the inspector lists what
// is pending; a compression takes the changes into the prompt.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { getJson, readChunks } from "../support/chat-client.ts";
import { type OpenAIFake, type RecordedRequest, startOpenAIFake } from "../support/openai-fake.ts";
import { databaseKinds, jsonRequest, userMessage } from "./helpers.ts";

type WireMessage = { role: string; content: unknown };

const text = (m: WireMessage | undefined) =>
  typeof m?.content === "string"
    ? m.content
    : ((m?.content ?? []) as Array<{ text?: string }>).map((p) => p.text ?? "").join("");
const systemOf = (r: RecordedRequest) => text((r.body.messages as WireMessage[])[0]);
const reminders = (r: RecordedRequest) =>
  (r.body.messages as WireMessage[])
    .filter((m) => m.role === "user" && text(m).startsWith("<system-reminder>"))
    .map(text);
const workspaceReminders = (r: RecordedRequest) =>
  reminders(r).filter((t) => t.includes("changed since your system prompt was written"));

describe.each(databaseKinds("wsprompt"))("$name: the workspace in a conversation's model calls", ({ databaseUrl }) => {
  let fake: OpenAIFake;
  let server: AppServer;
  let ws = "";
  let seq = 0;
  const api = (path: string) => `${server.url}/api${path}`;
  const put = (path: string, body: string) =>
    fetch(api(`/workspaces/${ws}/knowledge/${path}`), {
      method: "PUT",
      headers: { "content-type": "text/markdown" },
      body,
    });

  /** One turn; returns the requests the provider got for it. */
  async function turn(
    id: string,
    say: string,
    replies: Parameters<OpenAIFake["enqueue"]> = [{ text: "ok" }],
    workspaceId?: string,
  ) {
    const before = fake.requests.length;
    fake.enqueue(...replies);
    const response = await fetch(
      api("/chat"),
      jsonRequest("POST", {
        id,
        message: userMessage(`m-${id}-${seq++}`, say),
        ...(workspaceId ? { workspaceId } : {}),
      }),
    );
    expect(response.status).toBe(200);
    await readChunks(response);
    return fake.requests.slice(before);
  }

  beforeAll(async () => {
    fake = await startOpenAIFake();
    server = await startAppServer({ env: providerEnv(fake.url), databaseUrl: await databaseUrl() });
    ws = (
      await getJson<{ id: string }>(
        api("/workspaces"),
        jsonRequest("POST", { name: "Travel", instructions: "Plan trips by train." }),
      )
    ).body.id;
    expect(
      (await fetch(api(`/workspaces/${ws}/memory`), jsonRequest("POST", { text: "Prefers window seats" }))).status,
    ).toBe(201);
    expect((await put("KNOWLEDGE.md", "# Travel index\n- routes.md: train routes")).status).toBe(201);
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("keeps the prompt byte-identical while the workspace changes, and tells the agent each change once", async () => {
    const id = `wsp-${Date.now().toString(36)}`;
    const [first] = await turn(id, "hello", undefined, ws);
    const system = systemOf(first!);
    expect(system).toContain("Workspace: Travel");
    expect(system).toContain("<agents_context>\nPlan trips by train.\n</agents_context>");
    expect(system).toContain("<memory_context>\n- Prefers window seats\n</memory_context>");
    expect(system).toContain("# Travel index");
    expect(workspaceReminders(first!)).toEqual([]);

    // The person changes everything the workspace holds while the conversation is open.
    expect(
      (await fetch(api(`/workspaces/${ws}/memory`), jsonRequest("POST", { text: "Travels with a bicycle" }))).status,
    ).toBe(201);
    expect((await put("routes.md", "Berlin → Prague: 4h 20m")).status).toBe(201);
    expect(
      (
        await fetch(
          api(`/workspaces/${ws}`),
          jsonRequest("PATCH", { instructions: "Plan trips by train; avoid night trains." }),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await fetch(
          api("/workspaces/default/skills"),
          jsonRequest("POST", {
            name: "packing-list",
            description: "Writes a packing list",
            instructions: "1. Weather.",
          }),
        )
      ).status,
    ).toBe(201);

    const [second] = await turn(id, "next?");
    expect(systemOf(second!)).toBe(system);
    const told = workspaceReminders(second!);
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("- Memory entry added: Travels with a bicycle");
    expect(told[0]).toContain(
      `- Knowledge file added: routes.md (${Buffer.byteLength("Berlin → Prague: 4h 20m")} bytes; read it with KnowledgeRead).`,
    );
    expect(told[0]).toContain("instructions changed; they now read:\nPlan trips by train; avoid night trains.");
    expect(told[0]).toContain("- Skill added: packing-list: Writes a packing list (load it with SkillLoad).");
    // It is part of the stored conversation: the next call repeats it in place (the messages extend the last call's).
    const [third] = await turn(id, "and now?");
    expect(systemOf(third!)).toBe(system);
    expect(workspaceReminders(third!)).toEqual(told);

    const { body: context } = await getJson<{ system: string; workspace: { pending: string[] } }>(
      api(`/conversations/${id}/context`),
    );
    expect(context.system).toBe(system);
    expect(context.workspace.pending).toHaveLength(4);
    expect(context.workspace.pending.join("\n")).toContain("Memory entry added: Travels with a bicycle");
  });

  it("does not tell the agent about its own memory entry, but tells another conversation of the workspace", async () => {
    const mine = `wsp-own-${Date.now().toString(36)}`;
    const other = `wsp-other-${Date.now().toString(36)}`;
    await turn(other, "hello", undefined, ws);
    const requests = await turn(
      mine,
      "remember my seat",
      [
        { kind: "tools", calls: [{ id: "w1", name: "MemoryWrite", arguments: { entry: "Likes the quiet coach" } }] },
        { text: "Noted." },
      ],
      ws,
    );
    expect(requests).toHaveLength(2);
    expect(workspaceReminders(requests[1]!)).toEqual([]);
    const [next] = await turn(mine, "thanks");
    expect(workspaceReminders(next!)).toEqual([]);
    const [theirs] = await turn(other, "anything new?");
    expect(workspaceReminders(theirs!).join("\n")).toContain("- Memory entry added: Likes the quiet coach");
  });

  it("takes the changes into the prompt at a compression, and a new conversation starts with them", async () => {
    const id = `wsp-c-${Date.now().toString(36)}`;
    const long = (n: number) => `Part ${n}: ${"the route goes on through the valley ".repeat(120)}`;
    await turn(id, long(1), undefined, ws);
    // A window whose reserve keeps only the newest turn, so that there is something to summarise.
    const patch = await fetch(
      api(`/conversations/${id}`),
      jsonRequest("PATCH", { settings: { context: { contextWindow: 16_000 } } }),
    );
    expect(patch.status).toBe(200);
    await turn(id, long(2));
    await turn(id, long(3));
    expect(
      (await fetch(api(`/workspaces/${ws}/memory`), jsonRequest("POST", { text: "Carries a folding chair" }))).status,
    ).toBe(201);
    const [told] = await turn(id, "four");
    expect(systemOf(told!)).not.toContain("Carries a folding chair");
    expect(
      (
        await getJson<{ workspace: { pending: string[] } }>(api(`/conversations/${id}/context`))
      ).body.workspace.pending.join("\n"),
    ).toContain("Carries a folding chair");
    fake.enqueue({ text: "## Task Overview\nA trip." });
    const compact = await fetch(api(`/conversations/${id}/compact`), { method: "POST" });
    expect(compact.status).toBe(200);
    expect(((await compact.json()) as { compressed: boolean }).compressed).toBe(true);
    const { body: context } = await getJson<{ system: string; workspace: { pending: string[] } }>(
      api(`/conversations/${id}/context`),
    );
    expect(context.workspace.pending).toEqual([]);
    expect(context.system).toContain("- Carries a folding chair");
    const [after] = await turn(id, "five");
    expect(systemOf(after!)).toBe(context.system);
    // The kept tail may still hold the earlier hint; nothing new is said after the person's message.
    const sent = after!.body.messages as WireMessage[];
    const five = sent.findIndex((m) => m.role === "user" && text(m) === "five");
    expect(five).toBeGreaterThan(0);
    expect(sent.slice(five + 1).filter((m) => text(m).includes("changed since your system prompt"))).toEqual([]);
    const [fresh] = await turn(`wsp-new-${Date.now().toString(36)}`, "hi", undefined, ws);
    expect(systemOf(fresh!)).toContain("- Carries a folding chair");
    expect(workspaceReminders(fresh!)).toEqual([]);
  });
});
