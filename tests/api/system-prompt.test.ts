// The assembled system prompt through the real server and the OpenAI fake: stable without edits, changed on the
// very next request after an edit, and the context endpoint showing exactly what the model then receives.
import { describe, expect, it } from "vitest";
import { providerServerForFile } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";

type WireMessage = { role: string; content: unknown };

const env = providerServerForFile({ HINTLINE_MEMORY: "The person's name is Ada." });

const systemOf = (i: number) => (env.fake.requests[i]!.body.messages as WireMessage[])[0]!;

describe("system prompt assembly", () => {
  it("sends the identical system prompt for three turns, and the edited one on the very next request", async () => {
    const id = `sys-${Date.now()}`;
    for (const text of ["one", "two", "three"]) {
      env.fake.enqueue({ text: "ok" });
      await chat(env.server.url, { conversationId: id, text });
    }
    const base = systemOf(0);
    expect(base.role).toBe("system");
    expect(systemOf(1)).toEqual(base);
    expect(systemOf(2)).toEqual(base);
    expect(String(base.content)).toContain(
      "# Memory\nNotes kept across conversations; use them when relevant.\nThe person's name is Ada.",
    );
    expect(String(base.content)).toContain("# Tasks and system reminders");
    expect(String(base.content)).not.toMatch(/\d{4}-\d\d-\d\dT/);

    const patch = await fetch(`${env.server.url}/api/conversations/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ settings: { prompt: { instructions: "Answer in French." } } }),
    });
    expect(patch.status).toBe(200);

    // The inspector's view of the next input: the new system prompt, section by section, and the messages.
    const { body: context } = await getJson<{
      system: string;
      sections: Array<{ id: string; origin: string; tokens: number }>;
      messages: unknown[];
      tools: string[];
    }>(`${env.server.url}/api/conversations/${id}/context`);
    expect(context.sections.map((s) => [s.id, s.origin])).toEqual([
      ["base", "default"],
      ["subagents", "workspace default"],
      ["instructions", "conversation settings"],
      ["memory", "global default"],
      ["task-guidance", "Hintline"],
    ]);
    expect(context.tools).toEqual([
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

    env.fake.enqueue({ text: "d'accord" });
    await chat(env.server.url, { conversationId: id, text: "four" });
    const edited = systemOf(3);
    expect(edited).not.toEqual(base);
    expect(String(edited.content)).toContain(
      "# Instructions\nStanding rules from the person; follow them throughout.\nAnswer in French.",
    );
    expect(edited.content).toBe(context.system);
    // The context endpoint's messages are exactly what the model then received (before the new turn's message).
    const sent = env.fake.requests[3]!.body.messages as WireMessage[];
    expect(sent.slice(1, 1 + context.messages.length).map((m) => m.role)).toEqual(
      (context.messages as WireMessage[]).map((m) => m.role),
    );
    expect(text(sent[1 + context.messages.length - 1])).toBe(wireText((context.messages as WireMessage[]).at(-1)));
  });
});

function text(m: WireMessage | undefined): string {
  return typeof m?.content === "string" ? m.content : JSON.stringify(m?.content);
}
function wireText(m: WireMessage | undefined): string {
  if (!m) return "";
  if (typeof m.content === "string") return m.content;
  return (m.content as Array<{ type: string; text?: string }>).map((p) => p.text ?? "").join("");
}
