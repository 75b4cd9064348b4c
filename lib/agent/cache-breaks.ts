// The cache-break detector: compares each model call's input (system prompt, tool definitions, messages) with the
// previous call's of the same conversation and says where it stopped being an extension, and why. Providers cache
// the longest prefix they have seen, so the first changed message is where the cache missed. A cache with a TTL
// (Anthropic's 5 minutes or 1 hour, refreshed by each call) misses from the start when the call comes more than the
// TTL after the previous one: `ttl-expired`, decided from the two calls' start times (the clock is the caller's).
//
// Incremental: what a call sent before it sends again as the same objects (the history cache and the conversions
// kept per message), so those are recognised by identity; when the call's stable part (the history before the
// reply) is the very array of the last call, not even that is walked. Only messages that are not the same objects
// are hashed, each object once, so a step costs the size of what is new.
import type { ModelMessage } from "ai";
import type { CacheBreak, CacheBreakCause } from "../chat-message.ts";

export type CallInput = {
  /** The model the call went to: another model (or provider) caches nothing of what the previous one saw. */
  model?: string;
  system: string;
  /** The tool definitions as one string (names, descriptions, schemas); small and fixed per reply. */
  tools: string;
  /**
   * What the tool list was made from (the conversation's MCP list revision): a change there is the person's choice
   * ("Use the new tools now", or the list made again after a compression).
   */
  toolsSource?: string;
  messages: readonly ModelMessage[];
  /** An array `messages` begins with; passing the same array as last time (unchanged, never mutated) skips it. */
  stable?: readonly ModelMessage[];
  /** What the system prompt is assembled from (the person's prompt settings): a change there is the person's edit. */
  promptSource: string;
  /**
   * The settings that shape how past messages are written to the model (timestamps and their zone): a change there is
   * the person's edit, which rewrites the history.
   */
  inputSettings?: string;
  /** The compression state the call was built on (its summary): a change means a compression came before it. */
  compression: string;
  /** The conversation's branch state (lib/chat/branches.ts): a change means the person edited or switched a branch. */
  branch?: string;
  /** The call is the first of a retried reply (the person asked for it again). */
  retry?: boolean;
  /** Where the call's replace-strategy status is (its last message): the next call leaves it out by design. */
  replaceStatusAt?: number;
  /** When the call started. */
  at?: Date;
  /** How long what this call caches lives unused (the TTL in force); none where the provider states none. */
  cacheTtlMs?: number;
};

export type DetectedBreak = Omit<CacheBreak, "call" | "at">;

/** 53-bit string hash (cyrb53): fast, no dependency, collisions irrelevant at this scale. */
export function hashText(text: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

const messageHashes = new WeakMap<ModelMessage, { hash: string; bytes: number }>();

function binaryReplacer(_key: string, value: unknown): unknown {
  return value instanceof Uint8Array ? `bytes:${Buffer.from(value).toString("base64")}` : value;
}

/** A message's content hash and its JSON text's size in bytes (2 a character), worked out once per message object. */
function messageDigest(message: ModelMessage): { hash: string; bytes: number } {
  let digest = messageHashes.get(message);
  if (digest === undefined) {
    const json = JSON.stringify(message, binaryReplacer);
    digest = { hash: hashText(json), bytes: 2 * json.length };
    messageHashes.set(message, digest);
  }
  return digest;
}

/** A message's content hash, worked out once per message object. */
export function messageHash(message: ModelMessage): string {
  return messageDigest(message).hash;
}

/**
 * What the next call is compared with, as plain data (every text as its hash; the model as its id): kept in the
 * database, so the first call after a restart or on another instance is compared too.
 */
export type CallBaseline = {
  model?: string;
  system: string;
  tools: string;
  /** Absent in a baseline stored before the detector knew it (read as ""). */
  toolsSource?: string;
  promptSource: string;
  inputSettings: string;
  compression: string;
  branch: string;
  replaceStatusAt?: number;
  /** When the call started (ISO) and the TTL its cache entries were written with, where known. */
  at?: string;
  ttlMs?: number;
  /** Content hash of each message of the call, in order. */
  hashes: string[];
};

type Previous = CallBaseline & {
  /** The call's messages, when this process made it (recognised by identity); none for a stored baseline. */
  messages: readonly ModelMessage[];
  stable?: readonly ModelMessage[];
  /** The size of each message (messageDigest), in step with `hashes` (0 where only the stored hash is known), and their sum. */
  sizes: number[];
  bytes: number;
};

const isText = (v: unknown): v is string => typeof v === "string";

/** A stored baseline read defensively (JSON): undefined when it is not one. */
export function parseCallBaseline(value: unknown): CallBaseline | undefined {
  const v = value as Partial<CallBaseline> | null;
  if (typeof v !== "object" || v === null) return undefined;
  if (![v.system, v.tools, v.promptSource, v.inputSettings, v.compression, v.branch].every(isText)) return undefined;
  if (!Array.isArray(v.hashes) || !v.hashes.every(isText)) return undefined;
  if (v.replaceStatusAt !== undefined && !Number.isSafeInteger(v.replaceStatusAt)) return undefined;
  if (v.model !== undefined && !isText(v.model)) return undefined;
  if (v.toolsSource !== undefined && !isText(v.toolsSource)) return undefined;
  const at = isText(v.at) && Number.isFinite(Date.parse(v.at)) ? v.at : undefined;
  const ttlMs = Number.isSafeInteger(v.ttlMs) && (v.ttlMs as number) > 0 ? v.ttlMs : undefined;
  return {
    ...(v.model === undefined ? {} : { model: v.model }),
    system: v.system!,
    tools: v.tools!,
    ...(v.toolsSource === undefined ? {} : { toolsSource: v.toolsSource }),
    promptSource: v.promptSource!,
    inputSettings: v.inputSettings!,
    compression: v.compression!,
    branch: v.branch!,
    ...(v.replaceStatusAt === undefined ? {} : { replaceStatusAt: v.replaceStatusAt }),
    ...(at === undefined ? {} : { at }),
    ...(ttlMs === undefined ? {} : { ttlMs }),
    hashes: [...v.hashes],
  };
}

/** The previous call's cache entries had expired when this call started: more than their TTL between the two. */
function expired(input: CallInput, previous: CallBaseline): boolean {
  if (input.at === undefined || previous.at === undefined || previous.ttlMs === undefined) return false;
  return input.at.getTime() - Date.parse(previous.at) > previous.ttlMs;
}

function causeOf(
  input: CallInput,
  previous: Previous,
  changed: DetectedBreak["changed"],
  firstChanged: number | undefined,
): CacheBreakCause {
  if (hashText(input.branch ?? "") !== previous.branch) return "branch";
  if (hashText(input.compression) !== previous.compression) return "compression";
  if (changed === "system" && hashText(input.promptSource) !== previous.promptSource) return "prompt-edit";
  if (changed === "tools" && hashText(input.toolsSource ?? "") !== (previous.toolsSource ?? hashText("")))
    return "tools-changed";
  if (changed === "messages" && hashText(input.inputSettings ?? "") !== previous.inputSettings) return "settings-edit";
  if (changed === "messages" && firstChanged !== undefined && firstChanged === previous.replaceStatusAt)
    return "replaced-status";
  if (changed === "messages" && input.retry) return "retry";
  return "unexpected";
}

/**
 * One conversation's detector: `observe` each call's input in order; it returns the break, if the call is one. Given
 * a `baseline` (the conversation's last call, stored), the first call is compared with it.
 */
export function createCacheBreakDetector(baseline?: CallBaseline) {
  let previous: Previous | undefined = baseline && {
    ...baseline,
    hashes: [...baseline.hashes],
    messages: [],
    sizes: baseline.hashes.map(() => 0),
    bytes: 0,
  };
  return {
    observe(input: CallInput): DetectedBreak | undefined {
      const { messages } = input;
      const system = hashText(input.system);
      const tools = hashText(input.tools);
      const last = previous;
      let same = 0;
      let firstChanged: number | undefined;
      if (last) {
        const shared = Math.min(last.hashes.length, messages.length);
        // Messages this process sent last time are recognised by identity (a stored baseline has none).
        const known = Math.min(last.messages.length, shared);
        if (input.stable && input.stable === last.stable) same = Math.min(input.stable.length, known);
        while (same < known && messages[same] === last.messages[same]) same++;
        for (let i = same; i < shared; i++) {
          if (messageHash(messages[i]!) !== last.hashes[i]) {
            firstChanged = i;
            break;
          }
        }
        if (firstChanged === undefined && messages.length < last.hashes.length) firstChanged = messages.length;
      }
      // The hashes of this call: the shared identical prefix keeps its hashes, the rest is hashed (each object once).
      const hashes = last?.hashes ?? [];
      const sizes = last?.sizes ?? [];
      let bytes = last?.bytes ?? 0;
      for (let i = same; i < sizes.length; i++) bytes -= sizes[i]!;
      hashes.length = same;
      sizes.length = same;
      for (let i = same; i < messages.length; i++) {
        const digest = messageDigest(messages[i]!);
        hashes.push(digest.hash);
        sizes.push(digest.bytes);
        bytes += digest.bytes;
      }
      previous = {
        ...(input.model === undefined ? {} : { model: input.model }),
        system,
        tools,
        toolsSource: hashText(input.toolsSource ?? ""),
        promptSource: hashText(input.promptSource),
        inputSettings: hashText(input.inputSettings ?? ""),
        compression: hashText(input.compression),
        branch: hashText(input.branch ?? ""),
        ...(input.replaceStatusAt === undefined ? {} : { replaceStatusAt: input.replaceStatusAt }),
        ...(input.at === undefined ? {} : { at: input.at.toISOString() }),
        ...(input.cacheTtlMs === undefined ? {} : { ttlMs: input.cacheTtlMs }),
        messages,
        stable: input.stable,
        hashes,
        sizes,
        bytes,
      };
      if (!last) return undefined;
      if (input.model !== undefined && last.model !== undefined && input.model !== last.model) {
        return { firstChangedMessage: null, changed: "model", cause: "model-switch" };
      }
      // An expired cache misses from the start, whatever else changed further on.
      if (expired(input, last)) return { firstChangedMessage: null, changed: "time", cause: "ttl-expired" };
      let changed: DetectedBreak["changed"] | undefined;
      if (system !== last.system) changed = "system";
      else if (tools !== last.tools) changed = "tools";
      else if (firstChanged !== undefined) changed = "messages";
      if (!changed) return undefined;
      return {
        firstChangedMessage: changed === "messages" ? firstChanged! : null,
        changed,
        cause: causeOf(input, last, changed, firstChanged),
      };
    },
    /** The last call as plain data (a copy), to store; none before the first call. */
    baseline(): CallBaseline | undefined {
      if (!previous) return undefined;
      const { messages: _messages, stable: _stable, sizes: _sizes, bytes: _bytes, hashes, ...rest } = previous;
      return { ...rest, hashes: [...hashes] };
    },
    /** The size of the previous call's messages it keeps (as JSON text), for the caches that keep detectors. */
    heldBytes(): number {
      return previous?.bytes ?? 0;
    },
  };
}

export type CacheBreakDetector = ReturnType<typeof createCacheBreakDetector>;
