// A scriptable fake of the Anthropic Messages API (`POST /v1/messages`) on a real HTTP server, speaking the wire
// format `@ai-sdk/anthropic` parses: event-stream replies (message_start, content_block_start/delta/stop for text and
// tool_use with input_json_delta, message_delta, message_stop) and JSON replies, Anthropic's error bodies, and its
// prompt cache by `cache_control` breakpoint (prefix-cache.ts). Scripted like the OpenAI fake (fake-core.ts).
import type { IncomingMessage } from "node:http";
import {
  type ErrorAnswer,
  estimateTokens,
  type FakeAdapter,
  type FakeErrorName,
  type FakeOptions,
  type FakeReply,
  type FakeUsage,
  type ModelCall,
  type ProviderFake,
  sleep,
  splitWords,
  startFake,
  writeRaw,
} from "./fake-core.ts";
import { BreakpointCache, block, type CacheBlock, type Prefixes, prefixes } from "./prefix-cache.ts";

export type { FakeReply, ProviderFake as AnthropicFake, RecordedRequest } from "./fake-core.ts";

/** Anthropic's smallest cacheable prompt on most models (Sonnet, Opus 4); Haiku's is 2,048 (set `cacheMinTokens`). */
export const DEFAULT_CACHE_MIN_TOKENS = 1024;
export const DEFAULT_CONTEXT_WINDOW = 200_000;
export const MAX_BREAKPOINTS = 4;

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};
const errorBody = (status: number, message: string) => ({
  type: "error",
  error: { type: ERROR_TYPES[status] ?? "api_error", message },
});

const NAMED: Record<
  FakeErrorName,
  { status: number; message: (model: string) => string; headers?: Record<string, string> }
> = {
  auth: { status: 401, message: () => "invalid x-api-key" },
  "unknown-model": { status: 404, message: (model) => `model: ${model}` },
  "rate-limit": {
    status: 429,
    message: () => "This request would exceed the rate limit for your organization of 50 requests per minute.",
    headers: { "retry-after": "1" },
  },
  overloaded: { status: 529, message: () => "Overloaded" },
  "too-long": {
    status: 400,
    message: () => `prompt is too long: ${DEFAULT_CONTEXT_WINDOW + 1} tokens > ${DEFAULT_CONTEXT_WINDOW} maximum`,
  },
  invalid: { status: 400, message: () => "Invalid request." },
  server: { status: 500, message: () => "Internal server error" },
};
function namedError(name: FakeErrorName, message: string | undefined, model: string): ErrorAnswer {
  const e = NAMED[name];
  return { status: e.status, body: errorBody(e.status, message ?? e.message(model)), headers: e.headers };
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON.
type Json = any;
type Analysis = { prefixes: Prefixes; marks: number } | { error: string };

/** The body's blocks in Anthropic's cache order (tools, system, messages), or the 400 it would get for its markers. */
function analyse(body: Json, model: string): Analysis {
  const blocks: CacheBlock[] = [];
  let badMarker: string | undefined;
  let shortMarkAt: string | undefined;
  const add = (path: string, context: string, value: Json) => {
    if (typeof value === "object" && value !== null && "cache_control" in value && value.cache_control != null) {
      const { cache_control: mark, ...rest } = value;
      if (mark?.type !== "ephemeral") badMarker ??= `${path}.cache_control.type: Input should be 'ephemeral'`;
      else if (mark.ttl !== undefined && mark.ttl !== "5m" && mark.ttl !== "1h")
        badMarker ??= `${path}.cache_control.ttl: Input should be '5m' or '1h'`;
      // As Anthropic documents: entries with a longer TTL must come before those with a shorter one.
      else if (mark.ttl === "1h" && shortMarkAt !== undefined)
        badMarker ??= `${path}.cache_control.ttl: a 1h cache_control block cannot come after a 5m one (${shortMarkAt})`;
      else if (rest.type === "text" && rest.text === "")
        badMarker ??= `${path}.text: cache_control cannot be set for empty text blocks`;
      if (mark?.ttl !== "1h") shortMarkAt ??= path;
      blocks.push(block(path, context, JSON.stringify(rest), true));
    } else {
      blocks.push(block(path, context, JSON.stringify(value)));
    }
  };
  for (const [i, tool] of (Array.isArray(body.tools) ? body.tools : []).entries()) add(`tools.${i}`, "tool", tool);
  if (typeof body.system === "string") add("system", "system", { type: "text", text: body.system });
  else for (const [i, b] of (Array.isArray(body.system) ? body.system : []).entries()) add(`system.${i}`, "system", b);
  // tool_choice and thinking settings are part of every message block's cache key (changing them invalidates messages).
  const settings = JSON.stringify([body.tool_choice ?? null, body.thinking ?? null]);
  for (const [i, message] of (body.messages as Json[]).entries()) {
    const content =
      typeof message?.content === "string"
        ? [{ type: "text", text: message.content }]
        : Array.isArray(message?.content)
          ? message.content
          : [];
    const path =
      typeof message?.content === "string"
        ? () => `messages.${i}.content`
        : (j: number) => `messages.${i}.content.${j}`;
    for (const [j, b] of content.entries())
      add(path(j), `${settings}\u0000${message?.role}\u0000${j === 0 ? "start" : ""}`, b);
  }
  if (badMarker) return { error: badMarker };
  const last = blocks.at(-1);
  // A top-level cache_control ("automatic caching") puts a breakpoint on the last block and takes one of the four.
  if (body.cache_control != null && last && !last.breakpoint) last.breakpoint = true;
  const marks = blocks.filter((b) => b.breakpoint).length;
  if (marks > MAX_BREAKPOINTS)
    return { error: `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${marks}.` };
  return { prefixes: prefixes(model, blocks), marks };
}

type Plan = {
  text: string;
  calls: { id: string; name: string; json: string }[];
  stop: "end_turn" | "tool_use";
  usage: () => Json;
};

function plan(
  call: ModelCall,
  reply: { text?: string; calls?: { id?: string; name: string; arguments: unknown }[]; usage?: FakeUsage },
  cache: BreakpointCache,
  minTokens: number,
  analysis: Analysis | undefined,
): Plan {
  const text = reply.text ?? "";
  const calls = (reply.calls ?? []).map((c, i) => ({
    id: c.id ?? `toolu_fake_${call.seq}_${i}`,
    name: c.name,
    json: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
  }));
  // The cache is consulted (and written) when the request is served, like the real one; usage is only reported later.
  const p = analysis && "prefixes" in analysis ? analysis.prefixes : prefixes(call.model, []);
  const verdict = call.cacheable
    ? cache.apply(p, minTokens)
    : { readTokens: 0, writeTokens: 0, inputTokens: p.total, breakpoints: [] };
  call.recorded.cache = { ...verdict, blocks: p.blocks.length };
  const u = reply.usage ?? {};
  const total = u.promptTokens ?? p.total;
  const read = Math.min(u.cachedTokens ?? verdict.readTokens, total);
  const write = Math.min(u.cacheWriteTokens ?? verdict.writeTokens, total - read);
  const output = u.completionTokens ?? estimateTokens(text + calls.map((c) => c.name + c.json).join(""));
  const usage = () => ({
    input_tokens: total - read - write,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
    output_tokens: output,
  });
  return { text, calls, stop: calls.length > 0 ? "tool_use" : "end_turn", usage };
}

function messageJson(p: Plan, model: string, id: string, stop: string | null) {
  const content = [
    ...(p.text ? [{ type: "text", text: p.text }] : []),
    ...p.calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: JSON.parse(c.json) })),
  ];
  return {
    id,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: p.usage(),
  };
}

type StreamOptions = {
  delayMs?: number;
  cutAfter?: number;
  noFinish?: boolean;
  errorAfter?: number;
  error?: ErrorAnswer;
};

async function stream(call: ModelCall, p: Plan, id: string, opts: StreamOptions) {
  const { res } = call;
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    "request-id": `req_fake_${call.seq}`,
  });
  const send = (type: string, data: object) =>
    writeRaw(res, `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const start = {
    ...messageJson({ ...p, text: "", calls: [] }, call.model, id, null),
    usage: { ...p.usage(), output_tokens: 1 },
  };
  await send("message_start", { message: start });
  await send("ping", {});
  let index = 0;
  const words = splitWords(p.text);
  const stopAt = opts.cutAfter ?? opts.errorAfter;
  if (p.text) {
    await send("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const [i, word] of words.entries()) {
      if (stopAt !== undefined && i >= stopAt) break;
      if (i > 0 && opts.delayMs) await sleep(opts.delayMs);
      await send("content_block_delta", { index, delta: { type: "text_delta", text: word } });
    }
  }
  if (opts.cutAfter !== undefined) return void res.destroy(); // no stop events, no terminating chunk: a broken stream
  if (opts.error) {
    await send("error", opts.error.body as object);
    return void res.end();
  }
  if (p.text) await send("content_block_stop", { index: index++ });
  for (const c of p.calls) {
    if (opts.delayMs) await sleep(opts.delayMs);
    await send("content_block_start", {
      index,
      content_block: { type: "tool_use", id: c.id, name: c.name, input: {} },
    });
    await send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: "" } });
    const half = Math.ceil(c.json.length / 2);
    for (const piece of [c.json.slice(0, half), c.json.slice(half)]) {
      if (piece) await send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    }
    await send("content_block_stop", { index });
    index++;
  }
  if (!opts.noFinish) {
    await send("message_delta", { delta: { stop_reason: p.stop, stop_sequence: null }, usage: p.usage() });
    await send("message_stop", {});
  }
  if (!res.destroyed) res.end();
}

function adapter(): FakeAdapter {
  const cache = new BreakpointCache();
  const analyses = new WeakMap<object, Analysis>();
  return {
    route: (method, url) =>
      method === "POST" && url.pathname === "/v1/messages" ? { model: "", streaming: false } : undefined,
    get: (path, state) => {
      if (path !== "/v1/models") return undefined;
      const ids = state.models ?? ["claude-fake"];
      const data = ids.map((id) => ({ type: "model", id, display_name: id, created_at: "2026-01-01T00:00:00Z" }));
      return { data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
    },
    errorBody,
    namedError,
    refuse(call: ModelCall, headers: IncomingMessage["headers"], _url, state): ErrorAnswer | undefined {
      const key =
        headers["x-api-key"] ??
        (typeof headers.authorization === "string" ? headers.authorization.replace(/^Bearer /, "") : undefined);
      if (!key) return { status: 401, body: errorBody(401, "x-api-key header is required") };
      if (state.apiKey !== undefined && key !== state.apiKey) return namedError("auth", undefined, "");
      if (!headers["anthropic-version"])
        return { status: 400, body: errorBody(400, "anthropic-version: header is required") };
      const body = call.body;
      const invalid = (message: string): ErrorAnswer => ({ status: 400, body: errorBody(400, message) });
      if (typeof body !== "object" || body === null || Array.isArray(body))
        return invalid("Request body must be a JSON object.");
      if (typeof body.model !== "string") return invalid("model: Field required");
      if (typeof body.max_tokens !== "number") return invalid("max_tokens: Field required");
      if (!Array.isArray(body.messages)) return invalid("messages: Field required");
      call.model = body.model;
      call.streaming = body.stream === true;
      if (state.models && !state.models.includes(body.model)) return namedError("unknown-model", undefined, body.model);
      const analysis = analyse(body, body.model);
      if ("error" in analysis) return invalid(analysis.error);
      analyses.set(body, analysis);
      if (analysis.prefixes.total > state.contextWindow) {
        return invalid(`prompt is too long: ${analysis.prefixes.total} tokens > ${state.contextWindow} maximum`);
      }
      return undefined;
    },
    async serve(call, reply, state) {
      const id = `msg_fake_${call.seq}`;
      const p = plan(
        call,
        reply.kind === "tools" ? reply : { text: reply.text, usage: "usage" in reply ? reply.usage : undefined },
        cache,
        state.cacheMinTokens,
        analyses.get(call.body),
      );
      const { res } = call;
      if (!call.streaming) {
        if (reply.kind === "cut") return void res.destroy();
        if (reply.kind === "stream-error") {
          const e = namedError(reply.error ?? "overloaded", reply.message, call.model);
          res.writeHead(e.status, { "content-type": "application/json", ...e.headers });
          return void res.end(JSON.stringify(e.body));
        }
        const json = messageJson(p, call.model, id, reply.kind === "no-finish" ? null : p.stop);
        res.writeHead(200, { "content-type": "application/json", "request-id": `req_fake_${call.seq}` });
        return void res.end(JSON.stringify(json));
      }
      switch (reply.kind) {
        case "cut":
          return stream(call, p, id, { cutAfter: reply.afterChunks });
        case "no-finish":
          return stream(call, p, id, { noFinish: true });
        case "stream-error":
          return stream(call, p, id, {
            errorAfter: reply.afterChunks ?? 2,
            error: namedError(reply.error ?? "overloaded", reply.message, call.model),
          });
        default:
          return stream(call, p, id, { delayMs: reply.chunkDelayMs });
      }
    },
    clearCache: () => cache.clear(),
  };
}

export function startAnthropicFake(options: FakeOptions = {}): Promise<ProviderFake> {
  return startFake(adapter(), "/v1", { text: "Hello from the Anthropic fake." } satisfies FakeReply, {
    ...options,
    cacheMinTokens: options.cacheMinTokens ?? DEFAULT_CACHE_MIN_TOKENS,
    contextWindow: options.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
  });
}
