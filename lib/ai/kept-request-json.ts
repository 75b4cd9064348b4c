// With its earlier messages already converted (lib/agent/converted-prefix.ts), what still grows with a conversation
// in each model call is the Chat Completions provider's work on them: turning every message into the wire format
// and JSON.stringify of the whole body, 2 ms at 2,000 messages on every step. Here the request's JSON is kept per
// conversation instead: messages sent before (the same objects) go to the provider as one placeholder, new ones are
// sent with a marker after each so that their JSON can be cut out of the body and kept, and the fetch puts the kept
// JSON back in place of the placeholder. The server receives the same bytes either way (a test compares them).
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Message } from "@ai-sdk/provider";
import type { PromptWarmable } from "../agent/converted-prefix.ts";

/** The JSON of the messages sent so far (comma-separated) and where each message's JSON ends in it. */
type Kept = { messages: LanguageModelV4Message[]; json: string; ends: number[]; version: number };

/** What one call asks its fetch to do: the placeholder's replacement, and the markers after each new message. */
type Splice = { kept: Kept; version: number; same: number; keptJson: string; placeholder: string; markers: string[]; dryRun: boolean };

/**
 * A call's splice, taken by its fetch. Emptied then: the async context outlives the call (a pooled keep-alive socket
 * made during it keeps it), and must not keep a conversation's messages and JSON alive with it.
 */
type CallSlot = { splice?: Splice; fresh?: LanguageModelV4Message[] };

/** Thrown inside a call whose body does not hold the markers as expected: the call is then made without them. */
class SpliceMismatch extends Error {}
/** Ends a warm-up call once its JSON is kept, before anything is sent. */
class WarmedUp extends Error {}

const NONCE = randomBytes(12).toString("hex");
let counter = 0;

/** A message of its own, whose JSON (as the provider writes a user message of one text part) can be found exactly. */
function marker(): { message: LanguageModelV4Message; json: string } {
  const text = `hintline-kept-json-${NONCE}-${++counter}`;
  return { message: { role: "user", content: [{ type: "text", text }] }, json: `{"role":"user","content":"${text}"}` };
}

/**
 * The body with the placeholder replaced by the kept JSON and the markers removed, and each new message's JSON; or
 * undefined when the body is not laid out as `…[ or ,` placeholder `,` message `,` marker … `, or ]…`.
 */
export function spliceBody(body: string, splice: Pick<Splice, "keptJson" | "placeholder" | "markers">): { body: string; added: string[] } | undefined {
  const at = body.indexOf(splice.placeholder);
  if (at === -1) return undefined;
  let head = body.slice(0, at);
  if (!head.endsWith("[") && !head.endsWith(",")) return undefined;
  let cursor = at + splice.placeholder.length;
  const added: string[] = [];
  for (const json of splice.markers) {
    const end = body.indexOf(json, cursor);
    if (end === -1 || body[cursor] !== "," || body[end - 1] !== ",") return undefined;
    added.push(end - cursor <= 1 ? "" : body.slice(cursor + 1, end - 1));
    cursor = end + json.length;
  }
  let tail = body.slice(cursor);
  if (!tail.startsWith(",") && !tail.startsWith("]")) return undefined;
  // The messages in between, without the empty ones (a message the provider sends nothing for).
  const items = [splice.keptJson, ...added].filter((json) => json !== "");
  if (head.endsWith(",")) head = head.slice(0, -1);
  if (tail.startsWith(",")) tail = tail.slice(1);
  let joined = head;
  let comma = !head.endsWith("[");
  for (const item of items) {
    joined += comma ? `,${item}` : item;
    comma = true;
  }
  joined += comma && !tail.startsWith("]") ? `,${tail}` : tail;
  return { body: joined, added };
}

function keep(splice: Splice, added: string[], messages: readonly LanguageModelV4Message[]): void {
  const { kept } = splice;
  if (kept.version !== splice.version) return;
  kept.version++;
  kept.messages.length = splice.same;
  kept.ends.length = splice.same;
  let json = splice.keptJson;
  added.forEach((item, i) => {
    if (item) json = json ? `${json},${item}` : item;
    kept.messages.push(messages[i]!);
    kept.ends.push(json.length);
  });
  kept.json = json;
}

/**
 * A Chat Completions model made by `create` with the fetch it must use, sending each conversation's earlier messages
 * as kept JSON. Calls whose body cannot be spliced as expected are made again as they were.
 */
export function keptRequestJson(create: (fetch: typeof globalThis.fetch) => LanguageModelV4, baseFetch: typeof globalThis.fetch): LanguageModelV4 & PromptWarmable {
  const calls = new AsyncLocalStorage<CallSlot>();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const slot = calls.getStore();
    const { splice, fresh } = slot ?? {};
    if (!slot || !splice || !fresh || typeof init?.body !== "string") return baseFetch(input, init);
    slot.splice = slot.fresh = undefined;
    const spliced = spliceBody(init.body, splice);
    if (!spliced) throw new SpliceMismatch();
    keep(splice, spliced.added, fresh);
    if (splice.dryRun) throw new WarmedUp();
    return baseFetch(input, { ...init, body: spliced.body });
  };
  const model = create(fetch);
  // Keyed by the first message after the system prompt: one per conversation, dropped with it.
  const conversations = new WeakMap<LanguageModelV4Message, Kept>();

  function prepare(options: LanguageModelV4CallOptions, dryRun: boolean) {
    const { prompt } = options;
    let start = 0;
    while (start < prompt.length && prompt[start]!.role === "system") start++;
    if (start === prompt.length) return undefined;
    let kept = conversations.get(prompt[start]!);
    if (!kept) {
      kept = { messages: [], json: "", ends: [], version: 0 };
      conversations.set(prompt[start]!, kept);
    }
    const shared = Math.min(kept.messages.length, prompt.length - start);
    let same = 0;
    while (same < shared && kept.messages[same] === prompt[start + same]) same++;
    const fresh = prompt.slice(start + same);
    const placeholder = marker();
    const markers = fresh.map(() => marker());
    const sent = prompt.slice(0, start);
    sent.push(placeholder.message);
    for (let i = 0; i < fresh.length; i++) sent.push(fresh[i]!, markers[i]!.message);
    const splice: Splice = {
      kept,
      version: kept.version,
      same,
      keptJson: same > 0 ? kept.json.slice(0, kept.ends[same - 1]) : "",
      placeholder: placeholder.json,
      markers: markers.map((m) => m.json),
      dryRun,
    };
    return { slot: { splice, fresh } as CallSlot, options: { ...options, prompt: sent } };
  }

  return {
    specificationVersion: "v4",
    get provider() {
      return model.provider;
    },
    get modelId() {
      return model.modelId;
    },
    get supportedUrls() {
      return model.supportedUrls;
    },
    doGenerate: (options) => model.doGenerate(options),
    async doStream(options) {
      const prepared = prepare(options, false);
      if (!prepared) return model.doStream(options);
      const { slot } = prepared;
      try {
        return await calls.run(slot, () => model.doStream(prepared.options));
      } catch (error) {
        if (error instanceof SpliceMismatch) return model.doStream(options);
        throw error;
      } finally {
        slot.splice = slot.fresh = undefined;
      }
    },
    /** Keeps the JSON of `prompt` ahead of the call that will send it (after an import); sends nothing. */
    async warmPrompt(prompt) {
      const prepared = prepare({ prompt }, true);
      if (!prepared) return;
      const { slot } = prepared;
      try {
        await calls.run(slot, () => model.doStream(prepared.options));
      } catch {
        // WarmedUp, or a prompt the provider refuses; either way the next call starts from what is kept.
      } finally {
        slot.splice = slot.fresh = undefined;
      }
    },
  };
}
