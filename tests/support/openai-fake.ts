// A scriptable fake of the OpenAI Chat Completions API on a real HTTP server (node:http only), speaking the wire
// format that `@ai-sdk/openai`'s `.chat()` model parses. Tests script replies and inspect what the app sent, either
// in-process or through the `/__fake/*` control API from another process.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** Numbers as a real API sends them; anything else to play a provider that lies about usage. */
type FakeUsage = {
  promptTokens?: number | string | null;
  completionTokens?: number | string | null;
  cachedTokens?: number | string | null;
  /** Reported as `prompt_tokens_details.cache_write_tokens` (OpenAI from GPT-5.6); absent unless given. */
  cacheWriteTokens?: number | string | null;
};

export type FakeToolCall = { id?: string; name: string; arguments: unknown /* object, JSON-encoded on the wire */ };
export type FakeReply =
  | { kind?: "text"; text: string; chunkDelayMs?: number; usage?: FakeUsage }
  | { kind: "tools"; calls: FakeToolCall[]; text?: string; chunkDelayMs?: number; usage?: FakeUsage }
  | { kind: "http-error"; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: "cut"; text: string; afterChunks: number }
  | { kind: "hang" }
  /** `length` characters of `char` (default "=") in chunks of `chunkChars`, with no space, until done or the client leaves. */
  | { kind: "run"; length: number; char?: string; chunkChars?: number }
  /** A 200 answer that is not an event stream: an HTML page, or the non-streaming JSON completion of `text`. */
  | { kind: "html"; body?: string }
  | { kind: "json-to-stream"; text: string }
  /** Streams `text` and ends the stream ([DONE]) without a finish reason or usage. */
  | { kind: "no-finish"; text: string };
export type RecordedRequest = {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: recorded bodies are arbitrary JSON that tests poke into freely.
  body: any;
  /** `performance.now()` in the test's process when the whole request had arrived. */
  receivedAt?: number;
};
/** A model `GET /v1/models` lists; `max_model_len` is its window as vLLM reports it. */
export type FakeModel = { id: string; max_model_len?: number };
export type OpenAIFake = {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** The `GET /v1/models` requests (their headers: the key a connection sends). */
  modelListRequests: RecordedRequest[];
  /**
   * Hintline's title requests (header `x-hintline-purpose: title`), kept apart from `requests` and from the cache's
   * view of the conversation; each answered by the next of `enqueueTitle`, else a 404 (so a test that scripts no
   * title keeps the first message as the title).
   */
  titleRequests: RecordedRequest[];
  enqueueTitle(...replies: FakeReply[]): void;
  /**
   * Hintline's durable-facts requests at a compression (header `x-hintline-purpose: memory`), kept apart the same way;
   * each answered by the next of `enqueueMemory`, else a 404 (so a test that scripts none gets no facts).
   */
  memoryRequests: RecordedRequest[];
  enqueueMemory(...replies: FakeReply[]): void;
  enqueue(...replies: FakeReply[]): void;
  setDefault(reply: FakeReply | ((req: RecordedRequest) => FakeReply)): void;
  /** The smallest common prefix (in estimated tokens) reported as cached; OpenAI's is 1,024. */
  setCacheMinTokens(tokens: number): void;
  reset(): void;
  close(): Promise<void>;
};

type DefaultReply = FakeReply | ((req: RecordedRequest) => FakeReply);
type Usage = {
  prompt_tokens: unknown;
  completion_tokens: unknown;
  total_tokens: unknown;
  prompt_tokens_details?: { cached_tokens: unknown; cache_write_tokens?: unknown };
};
/** `usage()` is worked out when it is sent (the end of a stream): re-serialising a long prompt would delay the first chunk. */
type Plan = {
  text: string;
  calls: { id: string; name: string; args: string }[];
  finishReason: "stop" | "tool_calls";
  usage: () => Usage;
};

const INITIAL_DEFAULT: FakeReply = { text: "Hello from the fake." };
const KINDS = new Set(["text", "tools", "http-error", "cut", "hang", "run", "html", "json-to-stream", "no-finish"]);
const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  429: "rate_limit_exceeded",
};

/** Word-sized chunks that keep every whitespace character, so joining them gives back the text. */
function splitWords(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

const estimateTokens = (s: string): number => Math.ceil(s.length / 4);

/** OpenAI caches prompt prefixes in blocks of 128 tokens, from 1,024 tokens on. */
export const CACHE_BLOCK_TOKENS = 128;
export const DEFAULT_CACHE_MIN_TOKENS = 1024;

// biome-ignore lint/suspicious/noExplicitAny: the request body is arbitrary JSON.
type Body = any;
const serialized = new WeakMap<object, { tools: string; messages: string }>();
function serialize(body: Body): { tools: string; messages: string } {
  if (typeof body !== "object" || body === null) return { tools: "", messages: "[]" };
  let s = serialized.get(body);
  if (!s) {
    s = { tools: JSON.stringify(body.tools ?? null), messages: JSON.stringify(body.messages ?? []) };
    serialized.set(body, s);
  }
  return s;
}

/**
 * The cached tokens OpenAI would report for `body` after `previous`: the estimated tokens of their longest common
 * prefix (tools, then the messages as sent), rounded down to 128-token blocks, and none below `minTokens`.
 */
export function cachedPrefixTokens(body: Body, previous: Body | undefined, minTokens: number): number {
  if (!previous) return 0;
  const a = serialize(body);
  const b = serialize(previous);
  if (a.tools !== b.tools) return 0;
  const end = Math.min(a.messages.length, b.messages.length);
  let same = 0;
  while (same < end && a.messages.charCodeAt(same) === b.messages.charCodeAt(same)) same++;
  const tokens = Math.floor(Math.floor(same / 4) / CACHE_BLOCK_TOKENS) * CACHE_BLOCK_TOKENS;
  return tokens >= minTokens && tokens > 0 ? tokens : 0;
}
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isFakeReply(value: unknown): value is FakeReply {
  if (typeof value !== "object" || value === null) return false;
  const kind = (value as { kind?: unknown }).kind ?? "text";
  return typeof kind === "string" && KINDS.has(kind);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.headersSent) return;
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { ...headers, "content-type": "application/json", "access-control-allow-origin": "*" });
  res.end(text);
}

function errorBody(status: number, message: string) {
  return {
    error: {
      message,
      type: ERROR_TYPES[status] ?? (status >= 500 ? "server_error" : "invalid_request_error"),
      param: null,
      code: String(status),
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function writeEvent(res: ServerResponse, data: unknown): Promise<void> {
  if (res.destroyed || res.writableEnded) return Promise.resolve();
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return new Promise((resolve) => res.write(`data: ${payload}\n\n`, () => resolve()));
}

function makePlan(
  reply: { text?: string; calls?: FakeToolCall[]; usage?: FakeUsage },
  // biome-ignore lint/suspicious/noExplicitAny: the request body is arbitrary JSON.
  body: any,
  callIdPrefix: string,
  cached: () => number = () => 0,
): Plan {
  const text = reply.text ?? "";
  const calls = (reply.calls ?? []).map((c, i) => ({
    id: c.id ?? `${callIdPrefix}_${i}`,
    name: c.name,
    args: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
  }));
  const usage = () => {
    const prompt = reply.usage?.promptTokens ?? estimateTokens(serialize(body).messages);
    const completion =
      reply.usage?.completionTokens ?? estimateTokens(text + calls.map((c) => c.name + c.args).join(""));
    const total = typeof prompt === "number" && typeof completion === "number" ? prompt + completion : null;
    const cachedTokens =
      reply.usage && "cachedTokens" in reply.usage
        ? reply.usage.cachedTokens
        : typeof prompt === "number"
          ? Math.min(cached(), prompt)
          : 0;
    return {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: total,
      // From GPT-5.6 OpenAI bills cache writes and reports them (scripted: the fake writes nothing by itself).
      prompt_tokens_details: {
        cached_tokens: cachedTokens,
        ...(reply.usage?.cacheWriteTokens === undefined ? {} : { cache_write_tokens: reply.usage.cacheWriteTokens }),
      },
    };
  };
  return { text, calls, finishReason: calls.length > 0 ? "tool_calls" : "stop", usage };
}

async function streamPlan(
  res: ServerResponse,
  plan: Plan,
  model: string,
  id: string,
  opts: { delayMs?: number; cutAfter?: number; noFinish?: boolean },
) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const created = Math.floor(Date.now() / 1000);
  const base = { id, object: "chat.completion.chunk", created, model };
  const chunk = (delta: object, finishReason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  await writeEvent(res, chunk({ role: "assistant" }));
  const words = splitWords(plan.text);
  for (const [i, word] of words.entries()) {
    if (opts.cutAfter !== undefined && i >= opts.cutAfter) break;
    if (i > 0 && opts.delayMs) await sleep(opts.delayMs);
    await writeEvent(res, chunk({ content: word }));
  }
  if (opts.cutAfter !== undefined) {
    res.destroy(); // no finish chunk, no [DONE], no terminating HTTP chunk: the client sees a broken stream
    return;
  }
  for (const [index, call] of plan.calls.entries()) {
    if (opts.delayMs) await sleep(opts.delayMs);
    // Like the real API: id, type and name first with empty arguments, then the arguments string in pieces.
    await writeEvent(
      res,
      chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    const half = Math.ceil(call.args.length / 2);
    for (const piece of [call.args.slice(0, half), call.args.slice(half)]) {
      if (piece) await writeEvent(res, chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  if (!opts.noFinish) {
    await writeEvent(res, chunk({}, plan.finishReason));
    await writeEvent(res, { ...base, choices: [], usage: plan.usage() });
  }
  await writeEvent(res, "[DONE]");
  if (!res.destroyed) res.end();
}

/** Resolves when the response can take more, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** A long run without a space, written as fast as the client reads it; stops when the client goes away. */
async function streamRun(
  res: ServerResponse,
  reply: { length: number; char?: string; chunkChars?: number },
  model: string,
  id: string,
) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const base = { id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model };
  const piece = (reply.char ?? "=").repeat(reply.chunkChars ?? 4096);
  const event = `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`;
  await writeEvent(res, { ...base, choices: [{ index: 0, delta: { role: "assistant" }, finish_reason: null }] });
  for (let sent = 0; sent < reply.length && !res.destroyed; sent += piece.length) {
    if (!res.write(event)) await drained(res);
  }
  await writeEvent(res, { ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
  await writeEvent(res, "[DONE]");
  if (!res.destroyed) res.end();
}

function completionJson(plan: Plan, model: string, id: string) {
  const toolCalls = plan.calls.map((c) => ({
    id: c.id,
    type: "function",
    function: { name: c.name, arguments: c.args },
  }));
  const message = {
    role: "assistant",
    content: plan.text || null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  const created = Math.floor(Date.now() / 1000);
  return {
    id,
    object: "chat.completion",
    created,
    model,
    choices: [{ index: 0, message, finish_reason: plan.finishReason }],
    usage: plan.usage(),
  };
}

export async function startOpenAIFake(
  options: { port?: number; host?: string; cacheMinTokens?: number; models?: FakeModel[] } = {},
): Promise<OpenAIFake> {
  const host = options.host ?? "127.0.0.1";
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  const titleRequests: RecordedRequest[] = [];
  const titleQueue: FakeReply[] = [];
  const memoryRequests: RecordedRequest[] = [];
  const memoryQueue: FakeReply[] = [];
  const sockets = new Set<Socket>();
  const models: FakeModel[] = options.models ?? [{ id: "fake-model" }];
  const modelListRequests: RecordedRequest[] = [];
  let defaultReply: DefaultReply = INITIAL_DEFAULT;
  let seq = 0;
  let cacheMinTokens = options.cacheMinTokens ?? DEFAULT_CACHE_MIN_TOKENS;
  /** The body of the last chat request served: the prefix a provider's cache would hold. */
  let lastServed: Body | undefined;

  const reset = () => {
    queue.length = 0;
    requests.length = 0;
    titleQueue.length = 0;
    titleRequests.length = 0;
    memoryQueue.length = 0;
    memoryRequests.length = 0;
    defaultReply = INITIAL_DEFAULT;
    lastServed = undefined;
    cacheMinTokens = options.cacheMinTokens ?? DEFAULT_CACHE_MIN_TOKENS;
  };

  async function chat(req: IncomingMessage, res: ServerResponse, path: string) {
    const raw = await readBody(req);
    // biome-ignore lint/suspicious/noExplicitAny: the request body is arbitrary JSON.
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      requests.push({ path, headers: { ...req.headers }, body: raw });
      return sendJson(res, 400, errorBody(400, "Request body is not valid JSON."));
    }
    const recorded: RecordedRequest = { path, headers: { ...req.headers }, body, receivedAt: performance.now() };
    const purpose = req.headers["x-hintline-purpose"];
    const forTitle = purpose === "title";
    const forMemory = purpose === "memory";
    const apart = forTitle || forMemory;
    (forTitle ? titleRequests : forMemory ? memoryRequests : requests).push(recorded);
    const previous = apart ? undefined : lastServed;
    if (!apart) lastServed = body;
    const minTokens = cacheMinTokens;
    const cached = () => cachedPrefixTokens(body, previous, minTokens);
    let reply: FakeReply;
    try {
      reply = forTitle
        ? (titleQueue.shift() ?? {
            kind: "http-error",
            status: 404,
            body: errorBody(404, "This fake names no conversations unless told to."),
          })
        : forMemory
          ? (memoryQueue.shift() ?? {
              kind: "http-error",
              status: 404,
              body: errorBody(404, "This fake proposes no durable facts unless told to."),
            })
          : (queue.shift() ?? (typeof defaultReply === "function" ? defaultReply(recorded) : defaultReply));
    } catch (error) {
      return sendJson(res, 500, errorBody(500, `Fake default reply threw: ${String(error)}`));
    }
    const model = typeof body?.model === "string" ? body.model : "fake-model";
    const id = `chatcmpl-fake-${++seq}`;
    const callIds = `call_fake_${seq}`; // scripted calls without an id get call_fake_<request#>_<index>
    const streaming = body?.stream === true;
    switch (reply.kind) {
      case "hang":
        return; // never answer; the socket is destroyed when the client aborts or the fake closes
      case "http-error":
        return sendJson(
          res,
          reply.status,
          reply.body ?? errorBody(reply.status, `Fake upstream error ${reply.status}`),
          reply.headers,
        );
      case "run":
        return streamRun(res, reply, model, id);
      case "html":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return void res.end(reply.body ?? "<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>");
      case "json-to-stream":
        return sendJson(res, 200, completionJson(makePlan(reply, body, callIds, cached), model, id));
      case "no-finish":
        return streamPlan(res, makePlan(reply, body, callIds, cached), model, id, { noFinish: true });
      case "cut":
        if (!streaming) return void res.destroy();
        return streamPlan(res, makePlan(reply, body, callIds, cached), model, id, { cutAfter: reply.afterChunks });
      case "tools":
      case "text":
      case undefined: {
        const plan = makePlan(reply, body, callIds, cached);
        if (!streaming) return sendJson(res, 200, completionJson(plan, model, id));
        return streamPlan(res, plan, model, id, { delayMs: reply.chunkDelayMs });
      }
      default:
        return sendJson(res, 500, errorBody(500, `Unknown fake reply kind: ${JSON.stringify(reply)}`));
    }
  }

  async function control(req: IncomingMessage, res: ServerResponse, path: string, method: string) {
    if (method === "GET" && path === "/__fake/requests") return sendJson(res, 200, requests);
    if (method !== "POST") return sendJson(res, 405, errorBody(405, `Use POST for ${path}`));
    const raw = await readBody(req);
    let payload: unknown;
    try {
      payload = raw.trim() ? JSON.parse(raw) : undefined;
    } catch {
      return sendJson(res, 400, errorBody(400, "Control body is not valid JSON."));
    }
    if (path === "/__fake/reset") {
      reset();
      return sendJson(res, 200, { ok: true });
    }
    if (path === "/__fake/enqueue" || path === "/__fake/enqueue-memory") {
      const replies = Array.isArray(payload) ? payload : [payload];
      if (!replies.every(isFakeReply)) return sendJson(res, 400, errorBody(400, "Expected FakeReply[]."));
      const target = path === "/__fake/enqueue" ? queue : memoryQueue;
      target.push(...replies);
      return sendJson(res, 200, { ok: true, queued: target.length });
    }
    if (path === "/__fake/cache") {
      const minTokens = (payload as { minTokens?: unknown } | undefined)?.minTokens;
      if (!Number.isSafeInteger(minTokens) || (minTokens as number) < 0)
        return sendJson(res, 400, errorBody(400, "Expected { minTokens: a whole number ≥ 0 }."));
      cacheMinTokens = minTokens as number;
      return sendJson(res, 200, { ok: true });
    }
    if (path === "/__fake/default") {
      if (!isFakeReply(payload)) return sendJson(res, 400, errorBody(400, "Expected a FakeReply."));
      defaultReply = payload;
      return sendJson(res, 200, { ok: true });
    }
    return sendJson(res, 404, errorBody(404, `Unknown control path ${path}`));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    res.on("error", () => {});
    const path = new URL(req.url ?? "/", "http://fake.invalid").pathname;
    const method = req.method ?? "GET";
    if (method === "OPTIONS") {
      res.writeHead(204, {
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "GET, POST",
        "access-control-allow-headers": "*",
      });
      return void res.end();
    }
    if (path === "/v1/chat/completions" && method === "POST") return chat(req, res, path);
    if (path === "/v1/models" && method === "GET") {
      modelListRequests.push({ path, headers: { ...req.headers }, body: null });
      return sendJson(res, 200, {
        object: "list",
        data: models.map((m) => ({ object: "model", owned_by: "fake", ...m })),
      });
    }
    if (path.startsWith("/__fake/")) return control(req, res, path, method);
    return sendJson(res, 404, errorBody(404, `Unknown path: ${method} ${path}`));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendJson(res, 500, errorBody(500, `Fake crashed: ${String(error)}`)));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/v1`,
    port,
    requests,
    modelListRequests,
    titleRequests,
    enqueueTitle: (...replies) => void titleQueue.push(...replies),
    memoryRequests,
    enqueueMemory: (...replies) => void memoryQueue.push(...replies),
    enqueue: (...replies) => void queue.push(...replies),
    setDefault(reply) {
      defaultReply = reply;
    },
    setCacheMinTokens(tokens) {
      cacheMinTokens = tokens;
    },
    reset,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}

/** The text the model got for a tool call in a recorded request (an error goes over the wire as {"error": text}). */
export function toolResultText(request: RecordedRequest | undefined, callId: string): string {
  const messages = (request?.body.messages ?? []) as Array<{ role: string; content: unknown; tool_call_id?: string }>;
  const message = messages.find((m) => m.role === "tool" && m.tool_call_id === callId);
  const content = typeof message?.content === "string" ? message.content : JSON.stringify(message?.content ?? "");
  try {
    const parsed = JSON.parse(content) as { error?: string };
    return typeof parsed?.error === "string" ? parsed.error : content;
  } catch {
    return content;
  }
}
