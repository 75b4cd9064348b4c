// One budget over the system prompt's Subagents section, workspace section, settings instructions and memory, and skills
// list, through the real server and the OpenAI fake, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: a workspace
// holding some 45,000 tokens gets a system prompt whose budgeted sections fit min(HINTLINE_WORKSPACE_BUDGET, a quarter
// of the window), cut in the documented order with the notes, and the prompt alone no longer brings a conversation near
// its compression trigger.
import { countTokens } from "@/lib/agent/token-count";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { getJson, readChunks, type StreamChunk } from "../support/chat-client.ts";
import { type OpenAIFake, type RecordedRequest, startOpenAIFake } from "../support/openai-fake.ts";
import { databaseKinds, jsonRequest, userMessage } from "./helpers.ts";

type WireMessage = { role: string; content: unknown };
const text = (m: WireMessage | undefined) =>
  typeof m?.content === "string"
    ? m.content
    : ((m?.content ?? []) as Array<{ text?: string }>).map((p) => p.text ?? "").join("");
const systemOf = (r: RecordedRequest) => text((r.body.messages as WireMessage[])[0]);
const isSummary = (r: RecordedRequest) =>
  text((r.body.messages as WireMessage[]).at(-1)).startsWith("Summarize the conversation below");

const WINDOW = 28_000;
// min(8,000, 28,000 / 4): the window's share is the smaller.
const BUDGET = 7_000;
const BUDGETED = ["subagents", "workspace", "instructions", "memory", "skills"];

const rules = Array.from(
  { length: 660 },
  (_, i) => `Rule ${i}: keep the answer short and cite the knowledge file it came from.`,
).join("\n");
const memory = Array.from({ length: 50 }, (_, i) =>
  `Fact ${i}: ${"the person prefers detailed comparisons of train routes and fares ".repeat(13)}`.slice(0, 900),
);
const index = Array.from(
  { length: 900 },
  (_, i) => `- topic-${i}.md: notes on topic ${i}, its sources, its open questions and who owns it`,
).join("\n");
const files = Array.from(
  { length: 60 },
  (_, i) => `reference/${"long-folder-name-".repeat(5)}${i}/notes-about-topic-${i}.md`,
);
const skills = Array.from({ length: 40 }, (_, i) => ({
  name: `report-${i}`,
  description:
    `Writes the report of kind ${i}: ${"gathers the figures, checks them against the notes and lays them out ".repeat(3)}`.slice(
      0,
      280,
    ),
  instructions: "Do it well.",
}));
const globalInstructions = Array.from(
  { length: 160 },
  (_, i) => `Global rule ${i}: answer in the person's language.`,
).join("\n");
const globalMemory = Array.from({ length: 160 }, (_, i) => `Global note ${i}: the team meets on Mondays.`).join("\n");

describe.each(databaseKinds("ws_budget"))(
  "$name: one budget over the system prompt's stored parts",
  ({ databaseUrl }) => {
    let fake: OpenAIFake;
    let server: AppServer;
    let ws = "";
    const api = (path: string) => `${server.url}/api${path}`;

    beforeAll(async () => {
      fake = await startOpenAIFake();
      server = await startAppServer({
        databaseUrl: await databaseUrl(),
        env: {
          ...providerEnv(fake.url),
          HINTLINE_CONTEXT_WINDOW: String(WINDOW),
          HINTLINE_INSTRUCTIONS: globalInstructions,
          HINTLINE_MEMORY: globalMemory,
        },
      });
      const created = await getJson<{ id: string }>(
        api("/workspaces"),
        jsonRequest("POST", { name: "Big", instructions: rules }),
      );
      expect(created.status).toBe(201);
      ws = created.body.id;
      for (const entry of memory)
        expect((await fetch(api(`/workspaces/${ws}/memory`), jsonRequest("POST", { text: entry }))).status).toBe(201);
      const put = (path: string, body: string) =>
        fetch(api(`/workspaces/${ws}/knowledge/${path}`), {
          method: "PUT",
          headers: { "content-type": "text/markdown" },
          body,
        });
      expect((await put("KNOWLEDGE.md", index)).status).toBe(201);
      for (const path of files) expect((await put(path, "# Notes\n")).status).toBe(201);
      for (const skill of skills)
        expect((await fetch(api(`/workspaces/${ws}/skills`), jsonRequest("POST", skill))).status).toBe(201);
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await fake?.close();
    });

    it("sends a system prompt within the budget, cut in order with notes, that brings no compression and no context warning", async () => {
      const parts = [
        rules,
        memory.join("\n"),
        index,
        files.join("\n"),
        skills.map((s) => `${s.name}: ${s.description}`).join("\n"),
        globalInstructions,
        globalMemory,
      ];
      const stored = parts.reduce((n, part) => n + countTokens(part), 0);
      expect(stored).toBeGreaterThan(45_000);
      const id = `budget-${Date.now().toString(36)}`;
      const chunks: StreamChunk[] = [];
      for (const [i, say] of ["What do the rules say?", "And the first rule?"].entries()) {
        fake.enqueue({ text: "As the rules say." });
        const response = await fetch(
          api("/chat"),
          jsonRequest("POST", {
            id,
            message: userMessage(`m-${id}-${i}`, say),
            ...(i === 0 ? { workspaceId: ws } : {}),
          }),
        );
        expect(response.status).toBe(200);
        chunks.push(...(await readChunks(response)));
      }
      // No compression, no summary call, no context warning: one call per turn (the other request is the title's).
      expect(fake.requests.filter(isSummary)).toEqual([]);
      expect(chunks.filter((c) => c.type === "data-compression")).toEqual([]);
      const calls = fake.requests.filter((r) => systemOf(r).startsWith("You are Hintline"));
      expect(calls).toHaveLength(2);
      for (const request of calls)
        expect(JSON.stringify(request.body.messages)).not.toContain("your context will be compressed");
      const system = systemOf(calls[0]!);
      expect(systemOf(calls[1]!)).toBe(system);

      // The inspector's sections are what was sent; the budgeted ones fit the budget.
      const { body: context } = await getJson<{ system: string; sections: Array<{ id: string; tokens: number }> }>(
        api(`/conversations/${id}/context`),
      );
      expect(context.system).toBe(system);
      const budgeted = context.sections.filter((s) => BUDGETED.includes(s.id));
      expect(budgeted.map((s) => s.id)).toEqual(BUDGETED);
      const used = budgeted.reduce((n, s) => n + s.tokens, 0);
      expect(used).toBeLessThanOrEqual(BUDGET);
      expect(used).toBeGreaterThan(BUDGET - 100);
      expect(countTokens(system)).toBeLessThan(BUDGET + 1_000);

      // The cut order: memory (the workspace's, then the settings'), KNOWLEDGE.md, the skills, the agent ids, the file
      // list, then the workspace instructions with a note that says how to read them whole; the settings instructions
      // are whole.
      expect(system).toContain("[Memory cut to the budget: 0 of 50 entries shown. Search the rest with MemorySearch.]");
      expect(system).toMatch(
        /# Memory\nNotes kept across conversations; use them when relevant\.\n\[Memory truncated: 0 of \d+ tokens shown/,
      );
      expect(system).toContain(
        "[KNOWLEDGE.md cut to the budget: 0 of 900 lines shown. Read the rest with KnowledgeRead KNOWLEDGE.md.]",
      );
      expect(system).toContain("[Skills cut to the budget: 0 of 40 listed. SkillLoad loads any skill by name.]");
      expect(system).toContain("[Agent ids cut to the budget: 0 of 1 listed. AgentList lists every agent id.]");
      expect(system).toContain(
        "[File list cut to the budget: 0 of 60 files listed. List them all with KnowledgeList.]",
      );
      expect(system).toContain("<agents_context>\nRule 0: keep the answer short");
      expect(system).not.toContain("Rule 659:");
      expect(system).toMatch(
        /\[Instructions cut to the budget \(7000 tokens\): \d+ of \d+ tokens shown\. Read them whole with InstructionsRead\.\]\n<\/agents_context>/,
      );
      expect(system).toContain("Global rule 159: answer in the person's language.");
    });

    it("works the budget out from the conversation's own window", async () => {
      fake.reset();
      const id = `budget-own-${Date.now().toString(36)}`;
      // A conversation with a larger window of its own: min(8,000, 200,000 / 4) = 8,000.
      fake.enqueue({ text: "ok" });
      const first = await fetch(
        api("/chat"),
        jsonRequest("POST", { id, message: userMessage(`m-${id}`, "hello"), workspaceId: ws }),
      );
      await readChunks(first);
      expect(
        (
          await fetch(
            api(`/conversations/${id}`),
            jsonRequest("PATCH", { settings: { context: { contextWindow: 200_000 } } }),
          )
        ).status,
      ).toBe(200);
      const { body: context } = await getJson<{ sections: Array<{ id: string; tokens: number }>; system: string }>(
        api(`/conversations/${id}/context`),
      );
      const used = context.sections.filter((s) => BUDGETED.includes(s.id)).reduce((n, s) => n + s.tokens, 0);
      expect(used).toBeLessThanOrEqual(8_000);
      expect(used).toBeGreaterThan(7_900);
      expect(context.system).toContain("(8000 tokens)");
    });
  },
);
