// The built-in offline demo model: deterministic and rule-based, behind the AI SDK's language-model interface, so
// every feature of Hintline can be tried without a network. Same input, same output.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { countTokens, createTokenCounter } from "../agent/token-count.ts";
import { COMPRESSION_REQUEST_MARKER } from "../agent/compression.ts";
import { MEMORY_FACTS_MARKER } from "../agent/compression-memory.ts";
import { attachmentAck, personWords } from "./demo-attachments.ts";
import { attemptOf, reworded } from "./demo-attempts.ts";
import { continuation, remainder } from "./demo-continue.ts";
import { mcpDecision } from "./demo-mcp.ts";
import { planModeDecision } from "./demo-plan.ts";
import { answerQuestion, recoveryDecision } from "./demo-questions.ts";
import { demoFacts, extractiveSummary } from "./demo-summary.ts";
import { type DemoToolCall, nextCalls, plannedCalls, replySegment, summarizeResults } from "./demo-tasks.ts";
import { stateAnswer } from "./demo-state.ts";
import { childDecision, delegationDecision, finishedAgentsNote } from "./demo-subagents.ts";
import { DEMO_MODEL_ID } from "./demo-model-id.ts";
import { workspaceDecision } from "./demo-workspace.ts";

export { DEMO_MODEL_ID };
export const DEMO_CONTEXT_WINDOW = 8192;

/** `reworded`: the text already differs by attempt (an essay), so no opening line is added. */
type Decision = { text: string; calls?: DemoToolCall[]; reworded?: boolean };

function messageText(message: LanguageModelV4Prompt[number]): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => {
      if (part.type === "text" || part.type === "reasoning") return part.text;
      if (part.type === "tool-call") return JSON.stringify(part.input);
      if (part.type === "tool-result") return JSON.stringify(part.output);
      return "";
    })
    .join("\n");
}

const isReminder = (text: string) => text.trimStart().startsWith("<system-reminder>");

/** The newest value of `<tag>` inside a system reminder, searching from the end of the prompt. */
export function newestReminderField(prompt: LanguageModelV4Prompt, tag: string): string | undefined {
  const pattern = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g");
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]!;
    if (message.role !== "user") continue;
    const text = messageText(message);
    if (!isReminder(text)) continue;
    const matches = [...text.matchAll(pattern)];
    const last = matches.at(-1);
    if (last) return last[1];
  }
  return undefined;
}

function lastPersonEntry(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt[number] | undefined {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]!;
    if (message.role === "user" && !isReminder(messageText(message))) return message;
  }
  return undefined;
}

/** The person's latest words (the texts that carry their attachments left out). */
function lastPersonMessage(prompt: LanguageModelV4Prompt): string {
  const message = lastPersonEntry(prompt);
  if (!message) return "";
  return typeof message.content === "string"
    ? message.content
    : personWords(message.content as Parameters<typeof personWords>[0]);
}

const WORDS = [
  "water",
  "flows",
  "through",
  "valleys",
  "and",
  "stone",
  "carrying",
  "light",
  "across",
  "the",
  "wide",
  "green",
  "plain",
  "where",
  "old",
  "roots",
  "hold",
  "soft",
  "banks",
  "together",
  "while",
  "birds",
  "follow",
  "quiet",
  "currents",
  "toward",
  "distant",
  "hills",
  "under",
  "changing",
  "skies",
  "of",
  "early",
  "autumn",
  "mornings",
];

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** `count` words about `topic`; `seed` picks them (another seed, other words). */
export function essay(count: number, topic: string, seed = topic): string {
  const words: string[] = [];
  let h = hash(seed);
  for (let i = 0; i < count; i++) {
    h = Math.imul(h ^ (i + 1), 2654435761) >>> 0;
    let word = i % 12 === 5 ? topic : WORDS[h % WORDS.length]!;
    if (i === 0 || words.at(-1)?.endsWith(".")) word = word.charAt(0).toUpperCase() + word.slice(1);
    words.push(i % 12 === 11 || i === count - 1 ? `${word}.` : word);
  }
  return words.join(" ");
}

const HELP = [
  "I'm the **Hintline demo model** — I run offline and follow simple rules, so you can try every feature without an API key.",
  "",
  "Try:",
  "- *what time is it?* — I answer from the newest time reminder I was given",
  "- *how full is your context?*",
  "- *write 300 words about rivers*",
  "- *add tasks: draft; review; publish*, then *start 2*, *finish 1*, *cancel 3* or *what's left?*",
  "- *plan a blog post* (best in plan mode: the Build/Plan button, or Alt+Shift+P), then Approve and build: I turn the plan into tasks",
  "- *remember that I prefer metric units*, *what do you remember?*, *search the knowledge for X*, *read notes.md*, *use the weekly-report skill*",
  '- *mcp echo {"message": "hi"}* calls a tool of the workspace\'s MCP servers',
  "- *delegate: summarise the notes* (a subagent does it and answers), or *delegate in background: …*",
].join("\n");

/**
 * "How full is your context?": from the newest context hint when one came (the harness's own count), else from the
 * demo's count of the input it was given — tools, system prompt and messages, the figure the meter shows.
 */
function contextAnswer(prompt: LanguageModelV4Prompt, tools: LanguageModelV4CallOptions["tools"]): string {
  const hinted = /contains (\d+) tokens\.(?: When reaching (\d+) tokens)?/.exec(
    newestReminderField(prompt, "context-length") ?? "",
  );
  const used = hinted ? Number(hinted[1]) : inputTokens(prompt, tools);
  const pct = Math.round((used / DEMO_CONTEXT_WINDOW) * 100);
  const figure = `${used.toLocaleString("en-US")} of my ${DEMO_CONTEXT_WINDOW.toLocaleString("en-US")} tokens (${pct}%)`;
  return hinted
    ? `My context holds ${figure}, as the newest context hint told me.${hinted[2] ? ` It is compressed at ${Number(hinted[2]).toLocaleString("en-US")} tokens.` : ""}`
    : `My context holds about ${figure} — the figure the meter shows. Most of it is my instructions and tool definitions; I get a context hint once it nears the point where it is compressed.`;
}

/**
 * `tools`: the tools offered to this call ("mcp <tool> …" calls one of its MCP tools); `attempt`: which attempt at the
 * reply this is (Regenerate: 1, 2, …), worded differently each time.
 */
export function decide(
  prompt: LanguageModelV4Prompt,
  tools?: LanguageModelV4CallOptions["tools"],
  attempt = 0,
): Decision {
  // Continue: the answer to the person's message again, from where the stopped reply ended.
  const continued = continuation(prompt);
  if (continued) {
    const whole = decide(continued.before, tools, attempt);
    return whole.calls?.length ? whole : { text: remainder(whole.text, continued.written) };
  }
  const { reworded: already, ...decision } = firstDecision(prompt, tools, attempt);
  return decision.calls?.length || already ? decision : { ...decision, text: reworded(decision.text, attempt) };
}

function firstDecision(
  prompt: LanguageModelV4Prompt,
  tools: LanguageModelV4CallOptions["tools"],
  attempt: number,
): Decision {
  const request = lastPersonMessage(prompt);
  if (request.startsWith(COMPRESSION_REQUEST_MARKER)) return { text: extractiveSummary(request) };
  if (request.startsWith(MEMORY_FACTS_MARKER)) return { text: demoFacts(request) };
  const segment = replySegment(prompt);
  const mcp = mcpDecision(
    segment,
    (tools ?? []).map((t) => t.name),
  );
  if (mcp) return mcp;
  // Delegating is reading, in either mode: a child of a planning conversation plans too. A conversation offered no
  // AgentSpawn (a subagent at the maximum depth) does the task itself.
  const delegation = !tools || tools.some((t) => t.name === "AgentSpawn") ? delegationDecision(segment) : undefined;
  if (delegation) return delegation;
  const planMode = planModeDecision(prompt, segment, plannedCalls(segment.personText));
  if (planMode) return planMode;
  const recovery = recoveryDecision(segment);
  if (recovery) return recovery;
  const calls = nextCalls(segment);
  if (calls.length) return { text: "", calls };
  const workspace = workspaceDecision(prompt, segment);
  if (workspace) return workspace;
  // Results of what the person asked for are summed up; a TaskList the model made only because a tasks reminder
  // arrived is not the answer: the person's request is.
  if (segment.results.length && plannedCalls(segment.personText).length) return { text: summarizeResults(segment) };
  const ack = attachmentAck(lastPersonEntry(prompt)?.content);
  if (ack) return { text: ack };
  const said = lastPersonMessage(prompt).trim();
  const lower = said.toLowerCase();
  const write = /write\s+(\d{1,5})\s+words?\s+(?:about|on)\s+(.+)/i.exec(said);
  if (write) {
    const count = Math.min(Number(write[1]), 5000);
    const topic = write[2]!.replace(/[.?!]+$/, "").trim();
    return { text: essay(count, topic, attempt ? `${topic}\u0000${attempt}` : topic), reworded: true };
  }
  if (/what(?:'s| is) the time|what time is it|current time/.test(lower)) {
    const time = newestReminderField(prompt, "current-time");
    const zone = newestReminderField(prompt, "timezone");
    return {
      text: time
        ? `According to the newest system reminder, it is ${time}${zone ? ` (${zone})` : ""}.`
        : "I haven't been told the time in this conversation, so I can't say what time it is.",
    };
  }
  if (/how full|context (?:usage|size|window)|your context/.test(lower)) return { text: contextAnswer(prompt, tools) };
  // A question about a state source told in the input; one never told is answered after the notes are looked in.
  const state = stateAnswer(prompt, said);
  if (state?.told) return { text: state.text };
  const answer = answerQuestion(prompt, said);
  if (answer) return { text: answer };
  if (state) return { text: state.text };
  const finished = finishedAgentsNote(prompt, segment);
  if (finished) return { text: finished };
  // A subagent reads the workspace's knowledge with its tools (none offered: a bare call's) before it reports.
  const child = childDecision(
    prompt,
    segment,
    (tools ?? []).map((t) => t.name),
  );
  if (child) return child;
  if (/^(hi|hello|hey)\b/.test(lower)) return { text: `Hello! ${HELP}` };
  if (!said) return { text: HELP };
  return { text: `You said: “${said.slice(0, 200)}”.\n\n${HELP}` };
}

/** The input's tokens, counted as usage() counts them (tool definitions included). */
function inputTokens(prompt: LanguageModelV4Prompt, tools: LanguageModelV4CallOptions["tools"]): number {
  let total = tools?.length ? countToolTokens(JSON.stringify(tools)) + 4 : 0;
  for (const m of prompt) total += countTokens(messageText(m)) + 4;
  return total;
}

/** The last prompt this process answered, message by message: the prefix a provider's cache would hold. */
let lastPrompt: string[] = [];

// The same tool definitions come with every call: their count is kept by text.
const countToolTokens = createTokenCounter(4);

/**
 * Input tokens (tool definitions included), and those of the longest run of leading messages the last prompt shared, reported as cached the way
 * OpenAI does (whole 128-token blocks, from 1,024 tokens on). Only the usage depends on it, never the text.
 */
function usage(
  prompt: LanguageModelV4Prompt,
  output: string,
  tools: LanguageModelV4CallOptions["tools"],
): LanguageModelV4Usage {
  let input = 0;
  let shared = 0;
  let sharing = true;
  const keys: string[] = [];
  // The tool definitions come first in a provider's prompt (and its cache), then the messages.
  const parts: Array<{ role: string; text: string }> = [];
  if (tools?.length) parts.push({ role: "tools", text: JSON.stringify(tools) });
  for (const m of prompt) parts.push({ role: m.role, text: messageText(m) });
  for (const [i, { role, text }] of parts.entries()) {
    const key = `${role}\u0000${text}`;
    keys.push(key);
    const tokens = (role === "tools" ? countToolTokens(text) : countTokens(text)) + 4;
    input += tokens;
    sharing &&= lastPrompt[i] === key;
    if (sharing) shared += tokens;
  }
  lastPrompt = keys;
  const blocks = Math.floor(shared / 128) * 128;
  const cacheRead = blocks >= 1024 ? blocks : 0;
  const out = countTokens(output);
  return {
    inputTokens: { total: input, noCache: input - cacheRead, cacheRead, cacheWrite: 0 },
    outputTokens: { total: out, text: out, reasoning: 0 },
  };
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

const STEP_LIMIT_TEXT =
  "I have taken every step this reply may take, so I stop here. Ask me to go on and I will pick up where I left off.";

export function createDemoModel({ wordDelayMs = 12 }: { wordDelayMs?: number } = {}): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: "hintline",
    modelId: DEMO_MODEL_ID,
    supportedUrls: {},
    async doGenerate(options: LanguageModelV4CallOptions) {
      const { text } = decide(options.prompt, options.tools, attemptOf(options));
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: usage(options.prompt, text, options.tools),
        warnings: [],
      };
    },
    async doStream(options: LanguageModelV4CallOptions) {
      const decision = decide(options.prompt, options.tools, attemptOf(options));
      // The reply's last call may call no tool (its step limit): the demo says where it stopped instead.
      const { text, calls } =
        options.toolChoice?.type === "none" && decision.calls?.length ? { text: STEP_LIMIT_TEXT } : decision;
      const signal = options.abortSignal;
      if (calls?.length) {
        const base = hash(JSON.stringify(options.prompt.length) + lastPersonMessage(options.prompt));
        const parts: LanguageModelV4StreamPart[] = [
          { type: "stream-start", warnings: [] },
          ...calls.map(
            (call, i): LanguageModelV4StreamPart => ({
              type: "tool-call",
              toolCallId: `demo-${base.toString(36)}-${options.prompt.length}-${i}`,
              toolName: call.toolName,
              input: call.rawInput ?? JSON.stringify(call.input),
            }),
          ),
          {
            type: "finish",
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage: usage(options.prompt, JSON.stringify(calls), options.tools),
          },
        ];
        return {
          stream: new ReadableStream<LanguageModelV4StreamPart>({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.close();
            },
          }),
        };
      }
      const pieces = text.match(/\S+\s*|\s+/g) ?? [];
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({ type: "response-metadata", id: `demo-${hash(text)}`, modelId: DEMO_MODEL_ID });
          controller.enqueue({ type: "text-start", id: "t0" });
          for (const piece of pieces) {
            if (signal?.aborted) break;
            controller.enqueue({ type: "text-delta", id: "t0", delta: piece });
            await wait(wordDelayMs, signal);
          }
          controller.enqueue({ type: "text-end", id: "t0" });
          controller.enqueue({
            type: "finish",
            finishReason: { unified: "stop", raw: "stop" },
            usage: usage(options.prompt, text, options.tools),
          });
          controller.close();
        },
      });
      return { stream };
    },
  };
}
