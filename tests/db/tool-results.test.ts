// Every built-in tool's result against a real database (SQLite and PostgreSQL): the text the model reads — the call's
// result through the tool's toModelOutput, and the stored part loaded back and replayed on a later turn — is word for
// word what the tools answered when they returned text (TODAY was captured from that code), and so are their errors;
// the stored part holds the result's data (DATA) beside that text.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
const skillsDir = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-tool-results-"));
fs.mkdirSync(path.join(skillsDir, "release-notes"));
fs.writeFileSync(
  path.join(skillsDir, "release-notes", "SKILL.md"),
  "---\nname: release-notes\ndescription: Write release notes\n---\nRead template.md first.",
);
fs.writeFileSync(path.join(skillsDir, "release-notes", "template.md"), "# Release\n\n- Added\n- Fixed");
process.env.HINTLINE_SKILLS_DIR = skillsDir;

const { disconnectDb } = await import("@/lib/db/client");
const { ensureConversation } = await import("@/lib/db/conversations");
const { appendMessage, getMessage } = await import("@/lib/db/messages");
const { createWorkspace } = await import("@/lib/db/workspaces");
const { saveKnowledge } = await import("@/lib/chat/knowledge");
const { rememberEntry } = await import("@/lib/chat/workspaces");
const { addSkill } = await import("@/lib/chat/skills");
const { subagentHost } = await import("@/lib/chat/subagent-runs");
const { setClock } = await import("@/lib/clock");
const { createTools } = await import("@/lib/chat/tools/index");
const { createCallCounter, createRepeatCounter } = await import("@/lib/chat/tools/tool-context");
const { toModelMessages } = await import("@/lib/agent/to-model-messages");
const { summarizeTool } = await import("@/components/chat/tool-summary");

afterAll(async () => {
  setClock();
  fs.rmSync(skillsDir, { recursive: true, force: true });
  await disconnectDb();
});

type Tools = ReturnType<typeof createTools>;
type Step = { label: string; tool: keyof Tools; input: unknown; mode?: "plan" };
type CallableTool = {
  inputSchema: { validate: (value: unknown) => Promise<{ value?: unknown }> };
  execute: (input: unknown, options: object) => Promise<unknown>;
  toModelOutput?: (options: object) => unknown;
};

/** What the tools answered when they returned text (captured from that code; ids and times scrubbed). */
const TODAY: Record<string, string> = {
  "TaskList empty": "No tasks available.\n(Tool call #1 for 'TaskList' in this conversation.)",
  TaskCreate: "Task (id=1) created successfully: Draft\n(Tool call #1 for 'TaskCreate' in this conversation.)",
  "TaskCreate 2": "Task (id=2) created successfully: Review\n(Tool call #2 for 'TaskCreate' in this conversation.)",
  "TaskCreate empty":
    'ERROR InvalidArgumentsError: The subject is empty.\nArguments sent: {"subject":"  ","description":"x"}\nWhat to do: Send a short, non-empty subject.\n(Tool call #3 for \'TaskCreate\' in this conversation.)',
  TaskGet:
    'Task (id=1): Draft\nStatus: pending\nDescription: Write the draft\nMetadata: {"area":"docs"}\n(Tool call #1 for \'TaskGet\' in this conversation.)',
  "TaskGet missing":
    'ERROR Task not found\nError type: TaskNotFoundError\nArguments sent: {"task_id":"9"}\nWhat to do: Call TaskList to see the existing task ids.\n(Tool call #2 for \'TaskGet\' in this conversation.)',
  TaskList: "1 [pending] Draft\n2 [pending] Review\n(Tool call #2 for 'TaskList' in this conversation.)",
  "TaskList past": "No tasks at offset 10: there are 2 tasks.\n(Tool call #3 for 'TaskList' in this conversation.)",
  "TaskUpdate status": "Update task (id=1) status.\n(Tool call #1 for 'TaskUpdate' in this conversation.)",
  "TaskUpdate unchanged":
    "No updates were made to the task (id=1). Make sure you provided at least one field to update and the values are correct.\n(Tool call #2 for 'TaskUpdate' in this conversation.)",
  "TaskUpdate links": "Update task (id=1) subject, add_blocks.\n(Tool call #3 for 'TaskUpdate' in this conversation.)",
  "TaskUpdate completed":
    "Update task (id=1) status, owner.\n\nTask completed. Call TaskList now to find your next available task or see if your work unblocked others.\n(Tool call #4 for 'TaskUpdate' in this conversation.)",
  "TaskUpdate deleted": "Task (id=2) has been deleted.\n(Tool call #5 for 'TaskUpdate' in this conversation.)",
  "TaskUpdate missing":
    'ERROR TaskNotFoundError: The task (id=7) does not exist.\nArguments sent: {"task_id":"7","status":"completed"}\nWhat to do: Call TaskList to see the existing task ids, or TaskCreate to add the task.\n(Tool call #6 for \'TaskUpdate\' in this conversation.)',
  "TaskUpdate bad":
    'ERROR InvalidArgumentsError: The arguments do not match TaskUpdate\'s parameters: status: Invalid option: expected one of "pending"|"in_progress"|"completed"|"cancelled"|"deleted".\nArguments sent: {"task_id":"1","status":"done"}\nWhat to do: Call TaskUpdate again with a JSON object like {"task_id": "1", "status": "in_progress"}.\n(Tool call #7 for \'TaskUpdate\' in this conversation.)',
  "TaskList repeat 1": "1 [completed] Draft it (me)\n(Tool call #4 for 'TaskList' in this conversation.)",
  "TaskList repeat 2": "1 [completed] Draft it (me)\n(Tool call #5 for 'TaskList' in this conversation.)",
  "TaskList repeat 3":
    "1 [completed] Draft it (me)\n(Tool call #6 for 'TaskList' in this conversation.)\nWarning: this is call 3 of TaskList with these same arguments in this reply, and it gave the same result as the one before. Stop repeating it and try a different approach (other arguments, another tool, or answer with what you have).",
  "PlanRead none":
    "No plan has been written yet (PlanWrite writes one).\n(Tool call #1 for 'PlanRead' in this conversation.)",
  PlanWrite:
    "Plan saved (version 1, 25 characters). The person sees it in the side panel.\n(Tool call #1 for 'PlanWrite' in this conversation.)",
  "PlanWrite plan mode":
    "Plan saved (version 2, 34 characters). The person sees it in the side panel; they may edit it, and they switch to BUILD mode when they approve it.\n(Tool call #2 for 'PlanWrite' in this conversation.)",
  "TaskCreate plan mode":
    'ERROR PlanModeError: PLAN MODE is on (read-only): TaskCreate would change the conversation\'s state, so it was not run and nothing changed.\nArguments sent: {"subject":"x","description":"y"}\nWhat to do: Keep investigating with the read tools (TaskList, TaskGet) and write your plan with PlanWrite; the person switches to BUILD mode when they approve it, and then this call works.\n(Tool call #4 for \'TaskCreate\' in this conversation.)',
  "PlanWrite empty":
    'ERROR InvalidArgumentsError: The plan is empty.\nArguments sent: {"content":" "}\nWhat to do: Send the whole plan as markdown in content.\n(Tool call #3 for \'PlanWrite\' in this conversation.)',
  PlanRead:
    "Plan version 2 (written by you, <time>; 34 characters, 5 lines), lines 2–3:\n     2\t\n     3\t- Outline\n(Lines 4–5 not shown: continue with offset 4.)\n(Tool call #2 for 'PlanRead' in this conversation.)",
  MemoryWrite:
    "Memory entry saved (mem_<id>): The release is on Fridays\nThe workspace memory now holds 2 entries.\n(Tool call #1 for 'MemoryWrite' in this conversation.)",
  "MemoryWrite duplicate":
    'ERROR DuplicateMemoryError: Memory already holds this entry (mem_<id>, written by the person at <time>): "Prefers metric units". Entries are compared ignoring case and spaces; do not add it again.\nArguments sent: {"entry":"prefers  METRIC units"}\nWhat to do: The fact is already remembered: carry on without writing it again.\n(Tool call #2 for \'MemoryWrite\' in this conversation.)',
  MemorySearch:
    "2 memory entries match \"metric fridays\", best first:\n- [mem_<id>] (agent, <date>) The release is on Fridays\n- [mem_<id>] (person, <date>) Prefers metric units\n(Tool call #1 for 'MemorySearch' in this conversation.)",
  "MemorySearch none":
    "No memory entry matches \"zebra\" (the memory holds 2 entries).\n(Tool call #2 for 'MemorySearch' in this conversation.)",
  "MemorySearch no words":
    'ERROR InvalidArgumentsError: The query has no words to look for.\nArguments sent: {"query":"!!"}\nWhat to do: Send words to look for, like {"query": "units"}.\n(Tool call #3 for \'MemorySearch\' in this conversation.)',
  KnowledgeRead:
    "notes/api.md (55 bytes, 3 lines), lines 1–3:\n     1\t# API\n     2\tThe rate limit is 10 a second.\n     3\tRetry after a 429.\n(Tool call #1 for 'KnowledgeRead' in this conversation.)",
  "KnowledgeRead window":
    "notes/api.md (55 bytes, 3 lines), lines 2–2:\n     2\tThe rate limit is 10 a second.\n(Lines 3–3 not shown: continue with offset 3.)\n(Tool call #2 for 'KnowledgeRead' in this conversation.)",
  "KnowledgeRead past":
    "notes/api.md (55 bytes, 3 lines): offset 9 is past the last line (3).\n(Tool call #3 for 'KnowledgeRead' in this conversation.)",
  "KnowledgeRead missing":
    'ERROR KnowledgeFileNotFoundError: No knowledge file notes/none.md. Files: guide.md, notes/api.md.\nArguments sent: {"path":"notes/none.md"}\nWhat to do: Use one of the listed paths, or KnowledgeSearch to find the file.\n(Tool call #4 for \'KnowledgeRead\' in this conversation.)',
  KnowledgeSearch:
    "1 matching line for \"rate limit\" (lines with every word):\nnotes/api.md:2: The rate limit is 10 a second.\n(Tool call #1 for 'KnowledgeSearch' in this conversation.)",
  "KnowledgeSearch any":
    "2 matching lines for \"rate cards zebra\" (no line holds every word; lines with any of them):\nguide.md:1: Rate cards live here.\nnotes/api.md:2: The rate limit is 10 a second.\n(Tool call #2 for 'KnowledgeSearch' in this conversation.)",
  "KnowledgeSearch none":
    "No line of the knowledge files matches \"zebra\".\n(Tool call #3 for 'KnowledgeSearch' in this conversation.)",
  KnowledgeList:
    "2 knowledge files (read one with KnowledgeRead):\n- guide.md (21 bytes, 5 tokens)\n- notes/api.md (55 bytes, 18 tokens)\n(Tool call #1 for 'KnowledgeList' in this conversation.)",
  "KnowledgeList prefix":
    "1 knowledge file under notes/ (read one with KnowledgeRead):\n- notes/api.md (55 bytes, 18 tokens)\n(Tool call #2 for 'KnowledgeList' in this conversation.)",
  "KnowledgeList none": "No knowledge files under nothing/.\n(Tool call #3 for 'KnowledgeList' in this conversation.)",
  InstructionsRead:
    "Workspace instructions of \"Tools\" (44 characters, 2 lines), lines 1–2:\n     1\tAnswer in English.\n     2\tCite the knowledge files.\n(Tool call #1 for 'InstructionsRead' in this conversation.)",
  SkillLoad:
    "Skill weekly-report (from this workspace): Write the weekly report\n\n1. Gather the tasks.\n2. Summarise them.\n(Tool call #1 for 'SkillLoad' in this conversation.)",
  "SkillLoad long":
    "Skill long-skill (from this workspace): A long one\nInstructions (17591 characters, 300 lines), lines 299–300:\n   299\tStep 299: do it do it do it do it do it do it do it do it \n   300\tStep 300: do it do it do it do it do it do it do it do it \n(Tool call #2 for 'SkillLoad' in this conversation.)",
  "SkillLoad operator":
    "Skill release-notes (from the server's skills folder): Write release notes\n\nRead template.md first.\nResource files (load one with SkillLoad and its path): template.md\n(Tool call #3 for 'SkillLoad' in this conversation.)",
  "SkillLoad resource":
    "Skill release-notes (from the server's skills folder), resource template.md (26 bytes, 4 lines), lines 1–4:\n     1\t# Release\n     2\t\n     3\t- Added\n     4\t- Fixed\n(Tool call #4 for 'SkillLoad' in this conversation.)",
  "SkillLoad resource missing":
    'ERROR SkillResourceNotFoundError: The resource none.md does not exist. Its files: template.md.\nArguments sent: {"name":"release-notes","path":"none.md"}\nWhat to do: Use a path the skill\'s instructions name, relative to the skill.\n(Tool call #5 for \'SkillLoad\' in this conversation.)',
  "SkillLoad missing":
    'ERROR SkillNotFoundError: No skill named nope. Available skills: long-skill, release-notes, weekly-report.\nArguments sent: {"name":"nope"}\nWhat to do: Use a name from <available_skills>, or go on without a skill.\n(Tool call #6 for \'SkillLoad\' in this conversation.)',
  "AgentList none":
    "This conversation has no agents yet.\nSlots: 0 of 4 agents running in this conversation, 4 free.\nAgent ids you can spawn: general-purpose.\n(Tool call #1 for 'AgentList' in this conversation.)",
  AgentSpawn:
    "agent_key: agent:general-purpose:1\nstatus: done\nanswer:\nReport on: Find the API notes\n(Tool call #1 for 'AgentSpawn' in this conversation.)",
  "AgentSpawn background":
    "agent_key: agent:general-purpose:2\nstatus: running (started in the background)\nIts answer will reach you as a system reminder (System · Subagents) at your next step after it finishes. Go on with other work meanwhile; AgentList shows its status.\nSlots: 1 of 4 agents running in this conversation, 3 free.\n(Tool call #2 for 'AgentSpawn' in this conversation.)",
  "AgentSpawn missing":
    'ERROR AgentNotFoundError: There is no agent with the id "nobody". The agent ids are: general-purpose.\nArguments sent: {"agent_id":"nobody","task":"x"}\nWhat to do: Call AgentSpawn again with one of those ids.\n(Tool call #3 for \'AgentSpawn\' in this conversation.)',
  AgentSend:
    "agent_key: agent:general-purpose:1\nstatus: done\nanswer:\nReport on: Which file?\n(Tool call #1 for 'AgentSend' in this conversation.)",
  "AgentSend missing":
    'ERROR AgentNotFoundError: No agent of this conversation has the agent_key "agent:general-purpose:9". This conversation\'s agents:\nagent:general-purpose:1 [done] "api" — 0 s, 240 tokens\nagent:general-purpose:2 [done] — 0 s, 120 tokens\nArguments sent: {"agent_key":"agent:general-purpose:9","message":"x"}\nWhat to do: Use an agent_key from the list (or spawn a new agent).\n(Tool call #2 for \'AgentSend\' in this conversation.)',
  AgentList:
    "Agents of this conversation (2):\nagent:general-purpose:1 [done] \"api\" — 0 s, 240 tokens\nagent:general-purpose:2 [done] — 0 s, 120 tokens\nSlots: 0 of 4 agents running in this conversation, 4 free.\nAgent ids you can spawn: general-purpose.\n(Tool call #2 for 'AgentList' in this conversation.)",
  "InstructionsRead none":
    "The workspace has no instructions. This conversation also has instructions of its own (9 characters, in your system prompt).\n(Tool call #1 for 'InstructionsRead' in this conversation.)",
};

/** Each result's data, as its part stores it beside the text (ids scrubbed); an error has none. */
const DATA: Record<string, object> = {
  "TaskList empty": { total: 0, offset: 0, shown: 0 },
  TaskCreate: { taskId: "1", subject: "Draft" },
  "TaskCreate 2": { taskId: "2", subject: "Review" },
  TaskGet: { taskId: "1", subject: "Draft", status: "pending" },
  TaskList: { total: 2, offset: 0, shown: 2 },
  "TaskList past": { total: 2, offset: 10, shown: 0 },
  "TaskUpdate status": { taskId: "1", result: "updated", changed: ["status"], status: "in_progress" },
  "TaskUpdate unchanged": { taskId: "1", result: "unchanged", changed: [], status: "in_progress" },
  "TaskUpdate links": { taskId: "1", result: "updated", changed: ["subject", "add_blocks"], status: "in_progress" },
  "TaskUpdate completed": { taskId: "1", result: "updated", changed: ["status", "owner"], status: "completed" },
  "TaskUpdate deleted": { taskId: "2", result: "deleted", changed: [] },
  "TaskList repeat 1": { total: 1, offset: 0, shown: 1 },
  "TaskList repeat 2": { total: 1, offset: 0, shown: 1 },
  "TaskList repeat 3": { total: 1, offset: 0, shown: 1 },
  "PlanRead none": { version: null },
  PlanWrite: { version: 1, chars: 25 },
  "PlanWrite plan mode": { version: 2, chars: 34 },
  PlanRead: { version: 2, lines: { first: 2, last: 3, total: 5 } },
  MemoryWrite: { entryId: "mem_<id>", entry: "The release is on Fridays", total: 2 },
  MemorySearch: { matches: 2, shown: 2, entries: 2 },
  "MemorySearch none": { matches: 0, shown: 0, entries: 2 },
  KnowledgeRead: { path: "notes/api.md", bytes: 55, lines: { first: 1, last: 3, total: 3 } },
  "KnowledgeRead window": { path: "notes/api.md", bytes: 55, lines: { first: 2, last: 2, total: 3 } },
  "KnowledgeRead past": { path: "notes/api.md", bytes: 55, lines: { first: 9, last: 8, total: 3 } },
  KnowledgeSearch: { words: ["rate", "limit"], matches: 1, everyWord: true },
  "KnowledgeSearch any": { words: ["rate", "cards", "zebra"], matches: 2, everyWord: false },
  "KnowledgeSearch none": { words: ["zebra"], matches: 0, everyWord: true },
  KnowledgeList: { prefix: "", files: 2, shown: 2 },
  "KnowledgeList prefix": { prefix: "notes/", files: 1, shown: 1 },
  "KnowledgeList none": { prefix: "nothing/", files: 0, shown: 0 },
  InstructionsRead: { chars: 44, lines: { first: 1, last: 2, total: 2 } },
  SkillLoad: { name: "weekly-report", origin: "workspace" },
  "SkillLoad long": { name: "long-skill", origin: "workspace", lines: { first: 299, last: 300, total: 300 } },
  "SkillLoad operator": { name: "release-notes", origin: "operator" },
  "SkillLoad resource": {
    name: "release-notes",
    origin: "operator",
    path: "template.md",
    lines: { first: 1, last: 4, total: 4 },
  },
  "AgentList none": { agents: 0, running: 0, free: 4 },
  AgentSpawn: { agentKey: "agent:general-purpose:1", status: "done" },
  "AgentSpawn background": { agentKey: "agent:general-purpose:2", status: "running" },
  AgentSend: { agentKey: "agent:general-purpose:1", status: "done" },
  AgentList: { agents: 2, running: 0, free: 4 },
};

/** The transcript's summary of some of the results, read from their data. */
const SUMMARY: Record<string, string> = {
  "TaskList empty": "Listed tasks · none",
  TaskCreate: "Created task 1 · Draft",
  TaskList: "Listed tasks · 2",
  "TaskUpdate status": "Task 1 → In progress",
  "TaskUpdate unchanged": "Task 1 unchanged",
  "TaskUpdate links": "Task 1 updated · subject, add_blocks",
  "TaskUpdate deleted": "Deleted task 2",
  "PlanWrite plan mode": "Wrote the plan · version 2",
  MemorySearch: "Searched memory for “metric fridays” · 2 found",
  "MemorySearch none": "Searched memory for “zebra” · none found",
  "KnowledgeRead window": "Read notes/api.md · lines 2–2",
  "KnowledgeRead past": "Read notes/api.md",
  "KnowledgeSearch any": "Searched knowledge for “rate cards zebra” · 2 lines",
  "KnowledgeSearch none": "Searched knowledge for “zebra” · no match",
};

/** The calls, in order, in one conversation (the call counters and the repeat warning count on across them). */
const STEPS: Step[] = [
  { label: "TaskList empty", tool: "TaskList", input: {} },
  {
    label: "TaskCreate",
    tool: "TaskCreate",
    input: { subject: "Draft", description: "Write the draft", metadata: { area: "docs" } },
  },
  { label: "TaskCreate 2", tool: "TaskCreate", input: { subject: "Review", description: "" } },
  { label: "TaskCreate empty", tool: "TaskCreate", input: { subject: "  ", description: "x" } },
  { label: "TaskGet", tool: "TaskGet", input: { task_id: "1" } },
  { label: "TaskGet missing", tool: "TaskGet", input: { task_id: "9" } },
  { label: "TaskList", tool: "TaskList", input: {} },
  { label: "TaskList past", tool: "TaskList", input: { offset: 10 } },
  { label: "TaskUpdate status", tool: "TaskUpdate", input: { task_id: 1, status: "in_progress" } },
  { label: "TaskUpdate unchanged", tool: "TaskUpdate", input: { task_id: "1", status: "in_progress" } },
  { label: "TaskUpdate links", tool: "TaskUpdate", input: { task_id: "1", add_blocks: ["2"], subject: "Draft it" } },
  { label: "TaskUpdate completed", tool: "TaskUpdate", input: { task_id: "1", status: "completed", owner: "me" } },
  { label: "TaskUpdate deleted", tool: "TaskUpdate", input: { task_id: "2", status: "deleted" } },
  { label: "TaskUpdate missing", tool: "TaskUpdate", input: { task_id: "7", status: "completed" } },
  { label: "TaskUpdate bad", tool: "TaskUpdate", input: { task_id: "1", status: "done" } },
  { label: "TaskList repeat 1", tool: "TaskList", input: {} },
  { label: "TaskList repeat 2", tool: "TaskList", input: {} },
  { label: "TaskList repeat 3", tool: "TaskList", input: {} },
  { label: "PlanRead none", tool: "PlanRead", input: {} },
  { label: "PlanWrite", tool: "PlanWrite", input: { content: "# Plan\n\n- Outline\n- Draft" } },
  {
    label: "PlanWrite plan mode",
    tool: "PlanWrite",
    input: { content: "# Plan\n\n- Outline\n- Draft\n- Review" },
    mode: "plan",
  },
  { label: "TaskCreate plan mode", tool: "TaskCreate", input: { subject: "x", description: "y" }, mode: "plan" },
  { label: "PlanWrite empty", tool: "PlanWrite", input: { content: " " } },
  { label: "PlanRead", tool: "PlanRead", input: { offset: 2, limit: 2 } },
  { label: "MemoryWrite", tool: "MemoryWrite", input: { entry: "The release is on Fridays" } },
  { label: "MemoryWrite duplicate", tool: "MemoryWrite", input: { entry: "prefers  METRIC units" } },
  { label: "MemorySearch", tool: "MemorySearch", input: { query: "metric fridays" } },
  { label: "MemorySearch none", tool: "MemorySearch", input: { query: "zebra" } },
  { label: "MemorySearch no words", tool: "MemorySearch", input: { query: "!!" } },
  { label: "KnowledgeRead", tool: "KnowledgeRead", input: { path: "notes/api.md" } },
  { label: "KnowledgeRead window", tool: "KnowledgeRead", input: { path: "notes/api.md", offset: 2, limit: 1 } },
  { label: "KnowledgeRead past", tool: "KnowledgeRead", input: { path: "notes/api.md", offset: 9 } },
  { label: "KnowledgeRead missing", tool: "KnowledgeRead", input: { path: "notes/none.md" } },
  { label: "KnowledgeSearch", tool: "KnowledgeSearch", input: { query: "rate limit" } },
  { label: "KnowledgeSearch any", tool: "KnowledgeSearch", input: { query: "rate cards zebra" } },
  { label: "KnowledgeSearch none", tool: "KnowledgeSearch", input: { query: "zebra" } },
  { label: "KnowledgeList", tool: "KnowledgeList", input: {} },
  { label: "KnowledgeList prefix", tool: "KnowledgeList", input: { prefix: "notes/" } },
  { label: "KnowledgeList none", tool: "KnowledgeList", input: { prefix: "nothing/" } },
  { label: "InstructionsRead", tool: "InstructionsRead", input: {} },
  { label: "SkillLoad", tool: "SkillLoad", input: { name: "weekly-report" } },
  { label: "SkillLoad long", tool: "SkillLoad", input: { name: "long-skill", offset: 299 } },
  { label: "SkillLoad operator", tool: "SkillLoad", input: { name: "release-notes" } },
  { label: "SkillLoad resource", tool: "SkillLoad", input: { name: "release-notes", path: "template.md" } },
  { label: "SkillLoad resource missing", tool: "SkillLoad", input: { name: "release-notes", path: "none.md" } },
  { label: "SkillLoad missing", tool: "SkillLoad", input: { name: "nope" } },
  { label: "AgentList none", tool: "AgentList", input: {} },
  {
    label: "AgentSpawn",
    tool: "AgentSpawn",
    input: { agent_id: "general-purpose", task: "Find the API notes", label: "api" },
  },
  {
    label: "AgentSpawn background",
    tool: "AgentSpawn",
    input: { agent_id: "general-purpose", task: "Count the tasks", timeout_seconds: 0 },
  },
  { label: "AgentSpawn missing", tool: "AgentSpawn", input: { agent_id: "nobody", task: "x" } },
  { label: "AgentSend", tool: "AgentSend", input: { label: "api", message: "Which file?" } },
  { label: "AgentSend missing", tool: "AgentSend", input: { agent_key: "agent:general-purpose:9", message: "x" } },
  { label: "AgentList", tool: "AgentList", input: {} },
];

let n = 0;
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${n++}`;
// What differs from run to run: generated ids and the times things were stored.
const scrub = (text: string) =>
  text
    .replace(/mem_[\w-]+/g, "mem_<id>")
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<time>")
    .replace(/\d{4}-\d{2}-\d{2}/g, "<date>");

/** A child's run that answers at once with "Report on: <its task>" (100 + 20 tokens). */
const start: Parameters<typeof subagentHost>[0]["start"] = async ({ request, child }) => {
  const text = `Report on: ${request.message.parts[0]!.text}`;
  const reply = { id: unique("r"), role: "assistant" as const, parts: [{ type: "text" as const, text }] };
  await child.onSettled({ status: "complete", stopped: false, reply, calls: [{ inputTokens: 100, outputTokens: 20 }] });
  return new Response(null);
};

/** A conversation in a workspace of its own, and its tools called as the AI SDK calls them. */
async function conversation(workspace: { name: string; instructions?: string }, settings?: object) {
  const ws = (await createWorkspace({ id: unique("ws"), ...workspace, max: 1000 })) as { id: string };
  const conversationId = unique("conv");
  await ensureConversation({ id: conversationId, workspaceId: ws.id, settings });
  let mode: "build" | "plan" = "build";
  const tools: Tools = createTools({
    conversationId,
    workspaceId: ws.id,
    nextCallNumber: createCallCounter([]),
    onTasksChanged: () => {},
    mode: () => mode,
    subagents: subagentHost({ start, parentId: conversationId, workspaceId: ws.id }),
    repeatCount: createRepeatCounter(),
  });
  /**
   * The text the model reads for one call (an error's as "ERROR …"): from the tool's toModelOutput, and from the
   * part stored and loaded back, converted as a later turn converts it (also with timestamps); they must agree.
   */
  const call = async ({
    tool: name,
    input,
    mode: callMode,
  }: Omit<Step, "label">): Promise<{ text: string; output?: unknown }> => {
    mode = callMode ?? "build";
    const tool = tools[name] as unknown as CallableTool;
    const toolCallId = unique("call");
    const { value } = await tool.inputSchema.validate(input);
    let output: unknown;
    try {
      output = await tool.execute(value, { toolCallId, messages: [], abortSignal: new AbortController().signal });
    } catch (error) {
      return { text: `ERROR ${scrub(String(error))}` };
    }
    const fromCall = tool.toModelOutput
      ? await tool.toModelOutput({ toolCallId, input: value, output })
      : { type: "text", value: output };
    expect(fromCall).toEqual({ type: "text", value: expect.any(String) });
    const text = (fromCall as { value: string }).value;
    const resultAt = "2026-03-01T12:00:05.000Z";
    const part = { type: `tool-${name}`, toolCallId, state: "output-available", input: value, output, resultAt };
    const message = { id: unique("m"), role: "assistant" as const, parts: [part] };
    await appendMessage({ conversationId, message: message as never });
    const stored = (await getMessage({ conversationId, id: message.id }))!;
    expect(stored.parts[0]).toMatchObject({ output });
    const replayed = (options?: Parameters<typeof toModelMessages>[1]) =>
      toModelMessages([stored], options).find((m) => m.role === "tool")?.content[0];
    expect(replayed()).toMatchObject({ type: "tool-result", toolCallId, toolName: name, output: fromCall });
    expect(replayed({ timestamps: { zone: "UTC" } })).toMatchObject({
      output: { type: "text", value: `[2026-03-01 12:00:05] ${text}` },
    });
    return { text: scrub(text), output };
  };
  return { workspaceId: ws.id, call };
}

describe(`every built-in tool's result on ${inject("databaseKind")}`, () => {
  it("reads word for word as before, from the call and from the stored part, which holds the result's data", async () => {
    setClock(() => new Date("2026-03-01T12:00:00Z"));
    const { workspaceId, call } = await conversation({
      name: "Tools",
      instructions: "Answer in English.\nCite the knowledge files.",
    });
    await saveKnowledge(workspaceId, "notes/api.md", "# API\nThe rate limit is 10 a second.\nRetry after a 429.");
    await saveKnowledge(workspaceId, "guide.md", "Rate cards live here.");
    await rememberEntry(workspaceId, "Prefers metric units", "person");
    await addSkill(workspaceId, {
      name: "weekly-report",
      description: "Write the weekly report",
      instructions: "1. Gather the tasks.\n2. Summarise them.",
    });
    const long = Array.from({ length: 300 }, (_, i) => `Step ${i + 1}: ${"do it ".repeat(8)}`).join("\n");
    await addSkill(workspaceId, { name: "long-skill", description: "A long one", instructions: long });
    for (const step of STEPS) {
      const { text, output } = await call(step);
      expect(text, step.label).toBe(TODAY[step.label]);
      const data = DATA[step.label];
      expect(output && JSON.parse(scrub(JSON.stringify(output))), step.label).toEqual(
        data && { tool: step.tool, ...data, text: expect.any(String) },
      );
      if (!output) continue;
      // The summary reads the data, and says what it said of the same result stored as its text (before it had data).
      const view = { toolName: step.tool, state: "output-available", input: step.input };
      const summary = summarizeTool({ ...view, output });
      expect(summary, step.label).toBe(summarizeTool({ ...view, output: (output as { text: string }).text }));
      if (SUMMARY[step.label]) expect(summary, step.label).toBe(SUMMARY[step.label]);
    }
    const bare = await conversation({ name: "Bare" }, { prompt: { instructions: "Be brief." } });
    const none = await bare.call({ tool: "InstructionsRead", input: {} });
    expect(none.text).toBe(TODAY["InstructionsRead none"]);
    expect(none.output).toEqual({ tool: "InstructionsRead", chars: 0, text: expect.any(String) });
  }, 60_000);
});
