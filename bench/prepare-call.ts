// Per-step cost of preparing a model call, for conversations of 20, 200 and 2,000 stored messages.
// Run with `npm run bench`. Prints figures; asserts nothing.
import type { ChatMessage, ChatMessagePart } from "../lib/chat-message.ts";
import { decideInjection } from "../lib/agent/hints/decide-injection.ts";
import { scanContext } from "../lib/agent/hints/scan-context.ts";
import { defaultSettings } from "../lib/agent/settings.ts";
import { assembleSystemPrompt } from "../lib/agent/system-prompt/assemble.ts";
import { createTokenCounter } from "../lib/agent/token-count.ts";
import { toModelMessages } from "../lib/agent/to-model-messages.ts";
import { contextUsageFor } from "../lib/chat/context-usage.ts";

const settings = defaultSettings("UTC");
const source = settings.injection.injectionSource;
const countTokens = createTokenCounter();

function conversation(n: number): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      messages.push({
        id: `u${i}`,
        role: "user",
        parts: [{ type: "text", text: `Question ${i}: how do rivers shape valleys over time?` }],
      });
      continue;
    }
    const parts: ChatMessagePart[] = [];
    if (i % 20 === 1) {
      const text = `<system-reminder>Ground truth:\n<current-time>2026-07-01T${String(8 + (i % 10)).padStart(2, "0")}:00:00</current-time>\n<timezone>UTC</timezone>\n</system-reminder>`;
      parts.push({
        type: "data-hint",
        id: `h${i}`,
        data: { source, fields: {}, text, createdAt: "2026-07-01T08:00:00Z" },
      });
    }
    parts.push({ type: "step-start" });
    if (i % 10 === 3) {
      parts.push({
        type: "tool-TaskList",
        toolCallId: `c${i}`,
        state: "output-available",
        input: {},
        output: "1 [pending] Draft",
      } as unknown as ChatMessagePart);
      parts.push({ type: "step-start" });
    }
    parts.push({
      type: "text",
      text: `Answer ${i}: ${"Rivers carve valleys through erosion and deposition. ".repeat(6)}`,
    });
    messages.push({ id: `a${i}`, role: "assistant", parts });
  }
  return messages;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(fn: () => void, iterations: number): number {
  for (let i = 0; i < 50; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

const now = new Date("2026-07-01T12:00:00Z");
const prompt = () =>
  assembleSystemPrompt({
    conversation: { instructions: "Be brief.", memory: "Likes tea." },
    defaults: {},
    taskToolNames: settings.injection.taskToolNames,
    workspaceBudget: 8000,
    countTokens,
  });

console.log("Per-step cost of preparing a model call (median, ms)\n");
console.log(
  "messages | later step (scan + decide + prompt + reply conversion) | first call of a reply (+ history conversion + usage)",
);
for (const n of [20, 200, 2000]) {
  const history = conversation(n);
  const reply: ChatMessage = {
    id: "r",
    role: "assistant",
    parts: [{ type: "step-start" }, { type: "text", text: "partial" }],
  };
  const step = () => {
    const scan = scanContext(
      history,
      { source, taskToolNames: settings.injection.taskToolNames, openTasks: true },
      reply,
    );
    decideInjection({
      config: settings.injection,
      now,
      scan,
      tasks: { pending: 1, inProgress: 0 },
      tasksEditedByPerson: false,
      isFirstCall: false,
    });
    prompt();
    toModelMessages([reply]);
  };
  const first = () => {
    step();
    toModelMessages(history);
    contextUsageFor({ settings, contextWindow: 128_000, system: prompt().text, history, tools: 500 });
  };
  const iterations = n >= 2000 ? 30 : 200;
  console.log(
    `${String(n).padStart(8)} | ${time(step, iterations).toFixed(3).padStart(10)} | ${time(first, iterations).toFixed(3).padStart(10)}`,
  );
}
