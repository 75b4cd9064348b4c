// The fixed part of every model call — the system prompt and the built-in tools' definitions — at 4k, 8k, 32k and
// 128k windows (`npm run bench -- --only=fixed`), in-process: before (every tool, full definitions, the workspace
// budget a quarter of the window, as until issue 46) and after (lib/chat/fixed-part.ts). Two workspaces: none, and a
// full one (instructions, memory, KNOWLEDGE.md and files, skills, an agent of its own). Prints figures; asserts nothing.
import { defaultSettings } from "../lib/agent/settings.ts";
import type { WorkspaceSnapshot } from "../lib/agent/system-prompt/types.ts";
import { countTokens } from "../lib/agent/token-count.ts";
import { fixedPartFor } from "../lib/chat/fixed-part.ts";
import { systemPromptFor } from "../lib/chat/system-prompt.ts";
import { toolDefinitionTokens } from "../lib/chat/tools/index.ts";
import type { FrozenWorkspace } from "../lib/chat/workspace-view.ts";

const words = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(" ");
const full: WorkspaceSnapshot = {
  name: "Lab",
  instructions: `Answer in British English. ${words(400, "rule")}`,
  memory: Array.from({ length: 60 }, (_, i) => `The person prefers option ${i} for ${words(8, "topic")}`),
  knowledgeIndex: `# Index\n${Array.from({ length: 80 }, (_, i) => `- notes/file-${i}.md: ${words(6, "about")}`).join("\n")}`,
  files: Array.from({ length: 80 }, (_, i) => ({ path: `notes/file-${i}.md`, bytes: 1_000 + i })),
  skills: Array.from({ length: 12 }, (_, i) => ({ name: `skill-${i}`, description: words(12, "does") })),
  agents: [
    { id: "general-purpose", description: "A general-purpose helper." },
    { id: "reviewer", description: "Reviews a change and reports what is wrong." },
  ],
};
const workspaces: Array<[string, FrozenWorkspace | undefined]> = [
  ["no workspace content", undefined],
  [
    "the default workspace (the built-in agent)",
    {
      id: "bench-default",
      state: {} as FrozenWorkspace["state"],
      snapshot: {
        name: "Default",
        instructions: "",
        memory: [],
        knowledgeIndex: "",
        files: [],
        skills: [],
        agents: [full.agents![0]!],
      },
    },
  ],
  ["a full workspace", { id: "bench-full", state: {} as FrozenWorkspace["state"], snapshot: full }],
];

const pct = (n: number, window: number) => `${((100 * n) / window).toFixed(1)} %`;
console.log("Fixed part (system prompt + built-in tool definitions), tokens and share of the window");
for (const [label, workspace] of workspaces) {
  console.log(`\n${label}`);
  console.log("  window    before                        after");
  for (const window of [4_096, 8_192, 32_768, 131_072]) {
    const settings = { ...defaultSettings("UTC") };
    settings.context = { ...settings.context, contextWindow: window };
    const before = countTokens(systemPromptFor(settings, workspace, window).text) + toolDefinitionTokens();
    const after = fixedPartFor(settings, workspace, window);
    const tools = `${after.tools.names.length} tools, ${after.tools.style}`;
    console.log(
      `  ${String(window).padStart(7)}   ${String(before).padStart(6)} (${pct(before, window).padStart(7)})` +
        `          ${String(after.tokens).padStart(6)} (${pct(after.tokens, window).padStart(7)}; ${tools}; tools ${after.tools.tokens})`,
    );
  }
}
