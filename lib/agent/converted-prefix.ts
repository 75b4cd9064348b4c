// Every model call, streamText converts all of its messages to the provider-level prompt: 1.2 ms of a 2,000-message
// conversation's time to first token, on every step. A history's messages are the same objects call after call, so
// here each conversation's conversion is kept and extended with what is new (found by comparing pointers, without
// touching the messages themselves), and handed to the model by a middleware; streamText converts only the last
// message and its tool results. The provider receives the same prompt either way (a test compares the requests).
import type { LanguageModelV4, LanguageModelV4Message } from "@ai-sdk/provider";
import { type LanguageModel, type ModelMessage, wrapLanguageModel } from "ai";
import { convertToLanguageModelPrompt } from "ai/internal";

/**
 * The messages converted so far and their conversion, with the places both can be cut: the ends of groups (a
 * message and the tool messages after it, which the SDK merges into one) where no tool call waits for its result.
 */
type Fold = { messages: ModelMessage[]; prompt: LanguageModelV4Message[]; messageEnds: number[]; promptEnds: number[]; version: number };

/** A model that can prepare ahead for the prompt its next call will send (lib/ai/kept-request-json.ts). */
export type PromptWarmable = { warmPrompt(prompt: LanguageModelV4Message[]): Promise<void> };

/** Keyed by a history's first message: one per conversation, dropped with it. */
const folds = new WeakMap<ModelMessage, Fold>();

type Converter = { supportedUrls: Record<string, RegExp[]>; provider: string; abortSignal?: AbortSignal };

// Tool results the SDK maps without the provider or a download: their conversion does not depend on the model.
const PLAIN_OUTPUTS = new Set(["text", "json", "error-text", "error-json", "execution-denied"]);
const PLAIN_PARTS = new Set(["text", "reasoning", "tool-call"]);

/** Whether a message converts the same for every model (no files, URLs or provider references). */
function modelIndependent(message: ModelMessage): boolean {
  return (
    message.role !== "system" &&
    (typeof message.content === "string" ||
      message.content.every((part) => PLAIN_PARTS.has(part.type) || (part.type === "tool-result" && PLAIN_OUTPUTS.has(part.output.type))))
  );
}

/** Where the group starting at `from` ends: at the next message that is not a tool message. */
function groupEnd(messages: readonly ModelMessage[], from: number): number {
  let end = from + 1;
  while (end < messages.length && messages[end]!.role === "tool") end++;
  return end;
}

/** How many of the fold's groups `messages` still begins with (the same objects, and no tool message added). */
function keptGroups(fold: Fold, messages: readonly ModelMessage[]): number {
  const shared = Math.min(fold.messages.length, messages.length);
  let same = 0;
  while (same < shared && fold.messages[same] === messages[same]) same++;
  let kept = fold.messageEnds.length;
  while (kept > 0) {
    const end = fold.messageEnds[kept - 1]!;
    if (end <= same && (end === messages.length || messages[end]!.role !== "tool")) break;
    kept--;
  }
  return kept;
}

/**
 * Converts consecutive groups in one SDK call and splits the result back into groups: every message that is not a
 * tool message becomes exactly one prompt message, and a group's tool messages (if any survive) one more after it.
 */
async function convertRun(messages: readonly ModelMessage[], converter: Converter): Promise<{ prompt: LanguageModelV4Message[]; ends: number[] }> {
  const prompt = await convertToLanguageModelPrompt({ prompt: { instructions: undefined, messages: [...messages] }, download: undefined, ...converter });
  const ends: number[] = [];
  for (let i = 0; i < prompt.length; i++) if (i > 0 && prompt[i]!.role !== "tool") ends.push(i);
  if (prompt.length > 0) ends.push(prompt.length);
  return { prompt, ends };
}

/** For each group end: whether every tool call made since `from` has its result by then (the SDK's rule). */
function closedAfter(messages: readonly ModelMessage[], from: number, groupEnds: readonly number[]): boolean[] {
  const open = new Set<string>();
  const closed: boolean[] = [];
  let i = from;
  for (const end of groupEnds) {
    for (; i < end; i++) {
      const { role, content } = messages[i]!;
      if (typeof content === "string") continue;
      for (const part of content) {
        if (role === "assistant" && part.type === "tool-call" && !part.providerExecuted) open.add(part.toolCallId);
        if (role === "tool" && part.type === "tool-result") open.delete(part.toolCallId);
      }
    }
    closed.push(open.size === 0);
  }
  return closed;
}

/** The conversion of `messages`, and how many of them (from the end) had to be converted for it. */
async function convertPrefix(messages: readonly ModelMessage[], converter: Converter): Promise<{ prompt: LanguageModelV4Message[]; converted: number }> {
  const first = messages[0]!;
  let fold = folds.get(first);
  if (!fold) {
    fold = { messages: [], prompt: [], messageEnds: [], promptEnds: [], version: 0 };
    folds.set(first, fold);
  }
  const kept = keptGroups(fold, messages);
  const version = fold.version;
  const from = kept > 0 ? fold.messageEnds[kept - 1]! : 0;
  const base = fold.prompt.slice(0, kept > 0 ? fold.promptEnds[kept - 1]! : 0);
  // The new groups that convert the same for every model are kept; from the first one that does not, nothing is.
  let plainEnd = from;
  const groupEnds: number[] = [];
  while (plainEnd < messages.length) {
    const end = groupEnd(messages, plainEnd);
    if (!messages.slice(plainEnd, end).every(modelIndependent)) break;
    groupEnds.push(end);
    plainEnd = end;
  }
  const plain = plainEnd > from ? await convertRun(messages.slice(from, plainEnd), converter) : { prompt: [], ends: [] };
  const rest = plainEnd < messages.length ? (await convertRun(messages.slice(plainEnd), converter)).prompt : [];
  // Only when the run split into its groups as expected, and no other call changed the fold meanwhile.
  if (fold.version === version && plain.ends.length === groupEnds.length) {
    fold.version++;
    fold.messages.length = from;
    fold.prompt.length = base.length;
    fold.messageEnds.length = kept;
    fold.promptEnds.length = kept;
    for (let i = from; i < plainEnd; i++) fold.messages.push(messages[i]!);
    for (const message of plain.prompt) fold.prompt.push(message);
    // A history is cut only where no tool call is waiting for its result, as the SDK checks that across groups.
    const closed = closedAfter(messages, from, groupEnds);
    groupEnds.forEach((end, i) => {
      if (!closed[i]) return;
      fold.messageEnds.push(end);
      fold.promptEnds.push(base.length + plain.ends[i]!);
    });
  }
  return { prompt: base.concat(plain.prompt, rest), converted: messages.length - from };
}

/** Where streamText's share starts: the last group, so that it has at least one message to convert. */
function lastGroupStart(messages: readonly ModelMessage[]): number {
  let start = messages.length - 1;
  while (start > 0 && messages[start]!.role === "tool") start--;
  return start;
}

function isV4(model: LanguageModel): model is LanguageModelV4 {
  return typeof model === "object" && model.specificationVersion === "v4";
}

async function converterFor(model: LanguageModelV4, abortSignal?: AbortSignal): Promise<Converter> {
  return { supportedUrls: await model.supportedUrls, provider: model.provider.split(".")[0]!, abortSignal };
}

/**
 * The model and messages for one streamText call that sends `messages`: the earlier ones converted here (kept from
 * the last call where they are the same) and put back in front of the rest by a middleware, after the system
 * prompt. When that is not possible (another kind of model, a conversion error), the call gets everything as it
 * was, so the SDK converts (and reports) as usual.
 */
export async function withConvertedPrefix({
  model,
  messages,
  abortSignal,
}: {
  model: LanguageModel;
  messages: ModelMessage[];
  abortSignal?: AbortSignal;
}): Promise<{ model: LanguageModel; messages: ModelMessage[] }> {
  const start = lastGroupStart(messages);
  if (start === 0 || !isV4(model)) return { model, messages };
  let prefix: LanguageModelV4Message[];
  try {
    prefix = (await convertPrefix(messages.slice(0, start), await converterFor(model, abortSignal))).prompt;
  } catch {
    return { model, messages };
  }
  const wrapped = wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v4",
      transformParams: async ({ params }) => {
        const system = params.prompt.findIndex((m) => m.role !== "system");
        const at = system === -1 ? params.prompt.length : system;
        return { ...params, prompt: params.prompt.slice(0, at).concat(prefix, params.prompt.slice(at)) };
      },
    },
  });
  return { model: wrapped, messages: messages.slice(start) };
}

/**
 * Converts a history ahead of its next reply (after an import), so that reply converts only what follows it, and
 * lets a model that keeps its requests' JSON prepare it too. Resolves to the number of messages that had to be
 * converted (none when the history was converted before).
 */
export async function warmConvertedPrefix(model: LanguageModel, messages: readonly ModelMessage[]): Promise<number> {
  if (!isV4(model) || messages.length === 0) return 0;
  let result: Awaited<ReturnType<typeof convertPrefix>>;
  try {
    result = await convertPrefix(messages, await converterFor(model));
  } catch {
    return 0;
  }
  await (model as Partial<PromptWarmable>).warmPrompt?.(result.prompt);
  return result.converted;
}
