// The workspace's cost per model call, in-process on a fresh SQLite database (`npm run bench -- --only=workspace`):
// a workspace of 50 knowledge files (2 MB, or 200 KB for comparison) and an 8k-token memory. Measures the system
// prompt's assembly and the Workspace check each call makes when nothing changed (it must not grow with the files'
// sizes), the same after a change (the hint is built), the first assembly, and KnowledgeSearch over the files through
// the database's full-text index. Prints figures; asserts nothing.
import { OPERATOR } from "../lib/auth/viewer.ts";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-wsbench-"));
process.env.DATABASE_URL = `file:${path.join(dir, "bench.db")}`;
execFileSync(process.execPath, [path.join(root, "scripts/db-migrate.mjs"), "deploy"], {
  cwd: root,
  env: process.env,
  stdio: "pipe",
});

const { defaultSettings } = await import("../lib/agent/settings.ts");
const { countTokens } = await import("../lib/agent/token-count.ts");
const { ensureConversation } = await import("../lib/db/conversations.ts");
const { searchKnowledgeLines } = await import("../lib/db/knowledge.ts");
const { saveKnowledge } = await import("../lib/chat/knowledge.ts");
const { systemPromptFor } = await import("../lib/chat/system-prompt.ts");
const { openWorkspaceTracker } = await import("../lib/chat/workspace-view.ts");
const { addWorkspace, rememberEntry } = await import("../lib/chat/workspaces.ts");

const settings = defaultSettings("UTC");
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
async function time(fn: () => Promise<unknown>, iterations: number): Promise<number> {
  for (let i = 0; i < 20; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

const WORDS = [
  "river",
  "valley",
  "erosion",
  "delta",
  "granite",
  "glacier",
  "sediment",
  "basin",
  "meander",
  "estuary",
  "plateau",
  "canyon",
];
function fileText(index: number, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `${index}.${i} The ${WORDS[(index + i) % WORDS.length]} near the ${WORDS[(i * 7) % WORDS.length]} holds record ${index * 1000 + i}.`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

async function workspaceOf(name: string, fileBytes: number) {
  const ws = await addWorkspace(OPERATOR, { name, instructions: "Answer from the knowledge files; cite the path." });
  await saveKnowledge(
    ws.id,
    "KNOWLEDGE.md",
    `# ${name}\n${Array.from({ length: 50 }, (_, i) => `- notes/file-${i}.md: records ${i * 1000}–${i * 1000 + 999}`).join("\n")}`,
  );
  for (let i = 0; i < 50; i++) await saveKnowledge(ws.id, `notes/file-${i}.md`, fileText(i, fileBytes));
  let memoryTokens = 0;
  for (let i = 0; memoryTokens < 8_000; i++) {
    const entry = await rememberEntry(
      ws.id,
      `Fact ${i}: the survey of ${WORDS[i % WORDS.length]} site ${i} was finished in week ${i % 52}`,
      "person",
    );
    memoryTokens += countTokens(`- ${entry.text}\n`);
  }
  return { ws, memoryTokens };
}

console.log("Workspace cost per model call (median, ms; in-process, SQLite)\n");
for (const fileBytes of [4_000, 40_000]) {
  const { ws, memoryTokens } = await workspaceOf(`bench-${fileBytes}`, fileBytes);
  const conversationId = `bench-conv-${fileBytes}`;
  await ensureConversation({ id: conversationId, settings: {}, workspaceId: ws.id });
  const coldStart = performance.now();
  const tracker = await openWorkspaceTracker(conversationId);
  const prompt = systemPromptFor(settings, tracker.frozen(), 128_000);
  const cold = performance.now() - coldStart;
  const unchanged = await time(async () => {
    await tracker.beforeStep(undefined);
    systemPromptFor(settings, tracker.frozen(), 128_000);
  }, 200);
  let n = 0;
  const changed = await time(async () => {
    await rememberEntry(ws.id, `Change ${n++} to the memory`, "person");
    const news = await tracker.beforeStep(undefined);
    if (!news) throw new Error("expected a Workspace hint");
    await tracker.told(news);
    systemPromptFor(settings, tracker.frozen(), 128_000);
  }, 30);
  const label = `${((fileBytes * 50) / 1e6).toFixed(1)} MB knowledge (50 files), ${memoryTokens} memory tokens`;
  console.log(`${label}: system prompt ${countTokens(prompt.text)} tokens`);
  console.log(`  first assembly (freeze + assemble): ${cold.toFixed(1)} ms`);
  console.log(`  per call, nothing changed (Workspace check + prompt): ${unchanged.toFixed(2)} ms`);
  console.log(`  a memory write, then the next call (hint built, seen state stored): ${changed.toFixed(2)} ms`);
  if (fileBytes === 40_000) {
    for (const query of [["granite"], ["glacier", "record"], ["estuary", "canyon", "week"], ["nothing", "matches"]]) {
      const ms = await time(async () => {
        const hits = await searchKnowledgeLines({ workspaceId: ws.id, words: query, limit: 50 });
        if (hits.length === 0 && query.length > 1)
          await searchKnowledgeLines({ workspaceId: ws.id, words: query, anyWord: true, limit: 50 });
      }, 30);
      console.log(`  KnowledgeSearch "${query.join(" ")}" over 2 MB: ${ms.toFixed(2)} ms`);
    }
  }
}
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
