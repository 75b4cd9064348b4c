// Subagents in export/import and their faults, against a real `next start` with the demo model, on SQLite and (with
// TEST_POSTGRES_URL) PostgreSQL: an export carries the children with their conversations; an import recreates them
// under the new parent (ids remapped when taken, kept when free; one exported while running comes back stopped); bad
// children are refused with nothing written; a child stopped by its own Stop ends "stopped" and is told once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, getJson, stopReply } from "../support/chat-client.ts";
import { databaseKinds, expectApiError, jsonRequest, pollUntil } from "./helpers.ts";

type Agent = {
  agentKey: string;
  agentId: string;
  label?: string;
  conversationId: string;
  status: string;
  tokens: number;
};
type Part = { type: string; text?: string; data?: { source?: { sublabel?: string }; text?: string } };
type View = {
  id: string;
  parentId?: string;
  agentKey?: string;
  agents: Agent[];
  messages: Array<{ id: string; role: string; parts: Part[]; metadata?: { status?: string } }>;
};
type Exported = {
  version: 1;
  conversation: {
    id: string;
    messages: View["messages"];
    agents: Array<{
      agentKey: string;
      status: string;
      run: Record<string, unknown>;
      conversation: Exported["conversation"];
    }>;
  };
};

const kinds = databaseKinds("subagents-transfer");
const textOf = (parts: Part[]) =>
  parts
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("");

describe.each(kinds)("$name: subagents in export/import, and stopped children", ({ databaseUrl }) => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer({ databaseUrl: await databaseUrl(), env: { HINTLINE_DEMO_WORD_DELAY_MS: "2" } });
  });
  afterAll(async () => {
    await server?.stop();
  });
  const api = (path: string) => `${server.url}/api${path}`;
  const view = async (id: string) => (await getJson<View>(api(`/conversations/${id}`))).body;
  const exported = async (id: string) => (await getJson<Exported>(api(`/conversations/${id}/export`))).body;
  const importBody = async (body: unknown) => fetch(api("/conversations/import"), jsonRequest("POST", body));
  const listed = async () => (await getJson<Array<{ id: string }>>(api("/conversations"))).body.map((c) => c.id).sort();

  it("exports the children with their conversations, and an import recreates them under the new parent", async () => {
    await chat(server.url, { conversationId: "sx-parent", text: "delegate: list the three lakes" });
    const original = await view("sx-parent");
    const childId = original.agents[0]!.conversationId;
    const file = await exported("sx-parent");
    expect(file.conversation.agents).toEqual([
      expect.objectContaining({
        agentKey: "agent:general-purpose:1",
        status: "done",
        run: expect.objectContaining({ agentId: "general-purpose", label: "list the three lakes" }),
      }),
    ]);
    const childFile = file.conversation.agents[0]!.conversation;
    expect(childFile.id).toBe(childId);
    expect(childFile.messages.map((m) => textOf(m.parts).slice(0, 27))).toEqual([
      "list the three lakes",
      "Report from general-purpose",
    ]);

    // Both ids are taken: the copy and its child get new ones, and the original is untouched.
    const response = await importBody(file);
    expect(response.status).toBe(201);
    const { id: copyId } = (await response.json()) as { id: string };
    expect(copyId).not.toBe("sx-parent");
    const copy = await view(copyId);
    expect(copy.agents).toEqual([
      expect.objectContaining({
        agentKey: "agent:general-purpose:1",
        agentId: "general-purpose",
        status: "done",
        label: "list the three lakes",
      }),
    ]);
    const copiedChildId = copy.agents[0]!.conversationId;
    expect(copiedChildId).not.toBe(childId);
    const copiedChild = await view(copiedChildId);
    expect(copiedChild).toMatchObject({ parentId: copyId, agentKey: "agent:general-purpose:1" });
    expect(copiedChild.messages.map((m) => textOf(m.parts))).toEqual(
      (await view(childId)).messages.map((m) => textOf(m.parts)),
    );
    expect((await view("sx-parent")).agents.map((a) => a.conversationId)).toEqual([childId]);
    // A child is not listed as a conversation of its own.
    expect(await listed()).not.toContain(copiedChildId);
    // The copy's export holds the same child.
    expect((await exported(copyId)).conversation.agents.map((a) => [a.agentKey, a.conversation.id])).toEqual([
      ["agent:general-purpose:1", copiedChildId],
    ]);

    // Deleted and imported again: the ids are free, so they are kept; a child exported while running comes back stopped.
    expect((await fetch(api("/conversations/sx-parent"), { method: "DELETE" })).status).toBe(204);
    file.conversation.agents[0]!.status = "running";
    const again = await importBody(file);
    expect(again.status).toBe(201);
    expect(((await again.json()) as { id: string }).id).toBe("sx-parent");
    const restored = await view("sx-parent");
    expect(restored.agents).toEqual([
      expect.objectContaining({ agentKey: "agent:general-purpose:1", conversationId: childId, status: "stopped" }),
    ]);
    expect((await view(childId)).parentId).toBe("sx-parent");
  });

  it("refuses bad children with a clear 400 and writes nothing", async () => {
    await chat(server.url, { conversationId: "sx-bad", text: "delegate: count the rivers" });
    const file = await exported("sx-bad");
    expect((await fetch(api("/conversations/sx-bad"), { method: "DELETE" })).status).toBe(204);
    const before = await listed();
    const agent = file.conversation.agents[0]!;

    const twice = structuredClone(file);
    twice.conversation.agents.push(structuredClone(agent));
    expect(await expectApiError(await importBody(twice), 400, "bad_request")).toMatch(/same agentKey/);

    const badKey = structuredClone(file);
    badKey.conversation.agents[0]!.agentKey = "agent:<system-reminder>:1";
    expect(await expectApiError(await importBody(badKey), 400, "bad_request")).toMatch(/agentKey/);

    // A child whose own conversation is invalid: the parent written before it is taken back.
    const broken = structuredClone(file);
    const messages = broken.conversation.agents[0]!.conversation.messages;
    messages.push(structuredClone(messages[0]!));
    expect(await expectApiError(await importBody(broken), 400, "bad_request")).toMatch(/duplicate message id/);
    expect(await listed()).toEqual(before);
    await expectApiError(await fetch(api("/conversations/sx-bad")), 404, "not_found");
  });

  it("a child stopped by its own Stop mid-answer ends stopped, and the parent is told once", async () => {
    await chat(server.url, {
      conversationId: "sx-stop",
      text: "delegate in background: write 5000 words about deltas",
    });
    const childId = (await view("sx-stop")).agents[0]!.conversationId;
    await pollUntil(
      () => view(childId),
      (v) => v.messages.length >= 2,
      20_000,
      "the child's reply started",
    );
    expect((await stopReply(server.url, childId)).status).toBe(200);
    const stopped = await pollUntil(
      () => view("sx-stop"),
      (v) => v.agents[0]?.status === "stopped",
      20_000,
      "the child stopped",
    );
    expect(stopped.agents[0]!.conversationId).toBe(childId);
    expect((await view(childId)).messages.at(-1)!.metadata?.status).toBe("incomplete");
    await chat(server.url, { conversationId: "sx-stop", text: "hello" });
    await chat(server.url, { conversationId: "sx-stop", text: "hello again" });
    const hints = (await view("sx-stop")).messages
      .flatMap((m) => m.parts)
      .filter((p) => p.type === "data-hint" && p.data?.source?.sublabel === "Subagents");
    expect(hints).toHaveLength(1);
    expect(hints[0]!.data!.text).toContain(
      '<subagent-answer agent_key="agent:general-purpose:1" label="write 5000 words about deltas" status="stopped"',
    );
  });
});
