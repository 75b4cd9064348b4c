import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { decide } from "./demo-model.ts";
import { memoryEntryFrom, plannedWorkspaceCall } from "./demo-workspace.ts";

const user = (text: string): LanguageModelV4Prompt[number] => ({ role: "user", content: [{ type: "text", text }] });
const system = (text: string): LanguageModelV4Prompt[number] => ({ role: "system", content: text });
const call = (toolName: string, input: unknown = {}): LanguageModelV4Prompt[number] => ({
  role: "assistant",
  content: [{ type: "tool-call", toolCallId: `c-${toolName}`, toolName, input }],
});
const result = (toolName: string, value: string, error = false): LanguageModelV4Prompt[number] => ({
  role: "tool",
  content: [
    {
      type: "tool-result",
      toolCallId: `c-${toolName}`,
      toolName,
      output: { type: error ? "error-text" : "text", value },
    },
  ],
});
const COUNTER = (tool: string) => `\n(Tool call #1 for '${tool}' in this conversation.)`;

describe("demo model and the workspace tools", () => {
  it("turns 'remember that …' into MemoryWrite with a third-person entry, then confirms", () => {
    const asked = [user("remember that I prefer metric units")];
    expect(decide(asked).calls).toEqual([{ toolName: "MemoryWrite", input: { entry: "Prefers metric units" } }]);
    const saved = decide([
      ...asked,
      call("MemoryWrite"),
      result(
        "MemoryWrite",
        `Memory entry saved (mem_1): Prefers metric units\nThe workspace memory now holds 1 entries.${COUNTER("MemoryWrite")}`,
      ),
    ]);
    expect(saved.calls).toBeUndefined();
    expect(saved.text).toBe("Got it — I'll remember: Prefers metric units.");
    const duplicate = `DuplicateMemoryError: Memory already holds this entry (mem_1, written by the agent at 2026-01-01T00:00:00.000Z): "Prefers metric units". Entries are compared ignoring case and spaces; do not add it again.`;
    expect(decide([...asked, call("MemoryWrite"), result("MemoryWrite", duplicate, true)]).text).toBe(
      "I already remember that: Prefers metric units.",
    );
    expect(memoryEntryFrom("I'm vegetarian.")).toBe("Is vegetarian");
    expect(memoryEntryFrom("my cat is called Tom")).toBe("Their cat is called Tom");
    expect(memoryEntryFrom("I watch films on Fridays")).toBe("Watches films on Fridays");
    expect(memoryEntryFrom("the deploy is on Mondays")).toBe("The deploy is on Mondays");
    // "Note: …" keeps its old answer; only "remember that / remember:" writes memory.
    expect(decide([user("Note: the backup is in /var/backups.")]).text).toBe("Noted.");
  });

  it("answers 'what do you remember?' from the memory in its system prompt, and searches for a topic", () => {
    const prompt = [
      system("Base.\n<memory_context>\n- Prefers metric units\n- Lives in Lyon\n</memory_context>"),
      user("What do you remember?"),
    ];
    expect(decide(prompt)).toEqual({ text: "Here is what I remember:\n\n- Prefers metric units\n- Lives in Lyon" });
    expect(decide([user("what do you remember?")]).text).toMatch(/^My memory for this workspace is empty/);
    const about = [user("what do you remember about units?")];
    expect(decide(about).calls).toEqual([{ toolName: "MemorySearch", input: { query: "units" } }]);
    const found = decide([
      ...about,
      call("MemorySearch"),
      result(
        "MemorySearch",
        `1 memory entry matches "units", best first:\n- [mem_1] (agent, 2026-01-01) Prefers metric units${COUNTER("MemorySearch")}`,
      ),
    ]);
    expect(found.text).toBe(
      'From my memory (1 memory entry matches "units"):\n\n- [mem_1] (agent, 2026-01-01) Prefers metric units',
    );
  });

  it("searches the knowledge, reads a file and quotes its first lines", () => {
    const search = [user("search the knowledge for rate limit")];
    expect(decide(search).calls).toEqual([{ toolName: "KnowledgeSearch", input: { query: "rate limit" } }]);
    const hits = `1 matching line for "rate limit" (lines with every word):\nnotes/api.md:3: The rate limit is 10 per second.${COUNTER("KnowledgeSearch")}`;
    expect(decide([...search, call("KnowledgeSearch"), result("KnowledgeSearch", hits)]).text).toBe(
      'Found 1 matching line for "rate limit" (lines with every word):\n\n- `notes/api.md:3`: The rate limit is 10 per second.',
    );
    expect(plannedWorkspaceCall("open the file notes/api.md")).toEqual({
      toolName: "KnowledgeRead",
      input: { path: "notes/api.md" },
    });
    expect(plannedWorkspaceCall("read me a story")).toBeUndefined();
    const read = [user("read guide.md")];
    expect(decide(read).calls).toEqual([{ toolName: "KnowledgeRead", input: { path: "guide.md" } }]);
    const file = `guide.md (40 bytes, 3 lines), lines 1–3:\n     1\t# Guide\n     2\t\n     3\tAlways wear a helmet.${COUNTER("KnowledgeRead")}`;
    expect(decide([...read, call("KnowledgeRead"), result("KnowledgeRead", file)]).text).toBe(
      "`guide.md` (40 bytes, 3 lines) begins:\n\n> # Guide\n> Always wear a helmet.",
    );
    const missing = "KnowledgeFileNotFoundError: No knowledge file guide.md. The knowledge folder is empty.";
    expect(decide([...read, call("KnowledgeRead"), result("KnowledgeRead", missing, true)]).text).toBe(
      "That didn't work: No knowledge file guide.md. The knowledge folder is empty.",
    );
  });

  it("loads a skill by name and quotes its instructions", () => {
    const asked = [user("Use the weekly-report skill for this week")];
    expect(decide(asked).calls).toEqual([{ toolName: "SkillLoad", input: { name: "weekly-report" } }]);
    const skill = `Skill weekly-report (from this workspace): Writes the weekly report\n\n1. List what shipped\n2. List what is blocked${COUNTER("SkillLoad")}`;
    expect(decide([...asked, call("SkillLoad"), result("SkillLoad", skill)]).text).toBe(
      "Using the **weekly-report** skill (from this workspace): Writes the weekly report\n\nI'll follow its instructions:\n\n> 1. List what shipped\n> 2. List what is blocked",
    );
  });
});
