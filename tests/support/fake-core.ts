// The parts the Anthropic and Gemini fakes share: one reply script (the same `FakeReply` drives both, so a provider-
// facing test can run unchanged against each), the recorded requests, Hintline's title requests kept apart, the
// `/__fake/*` control API and the server's life. Each fake supplies its wire format as a `FakeAdapter`.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** Overrides of the usage a fake works out. Names are the AI SDK's: `promptTokens` is the whole input (cached or not). */
export type FakeUsage = {
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
  cacheWriteTokens?: number;
};
export type FakeToolCall = { id?: string; name: string; arguments: unknown /* object, JSON-encoded on the wire */ };
/** Provider-neutral names of the refusals every provider has; each fake sends its own status and body for them. */
export type FakeErrorName = "auth" | "unknown-model" | "rate-limit" | "overloaded" | "too-long" | "invalid" | "server";
export const ERROR_NAMES: readonly FakeErrorName[] = [
  "auth",
  "unknown-model",
  "rate-limit",
  "overloaded",
  "too-long",
  "invalid",
  "server",
];
export type FakeReply =
  | { kind?: "text"; text: string; chunkDelayMs?: number; usage?: FakeUsage }
  | { kind: "tools"; calls: FakeToolCall[]; text?: string; chunkDelayMs?: number; usage?: FakeUsage }
  /** The provider's own error answer (status, JSON body, headers) for a named refusal. */
  | { kind: "error"; error: FakeErrorName; message?: string }
  | { kind: "http-error"; status: number; body?: unknown; headers?: Record<string, string> }
  /** A 200 stream that sends part of `text`, then the provider's in-stream error event. */
  | { kind: "stream-error"; text: string; afterChunks?: number; error?: FakeErrorName; message?: string }
  /** Part of `text`, then the connection is destroyed (no end event). */
  | { kind: "cut"; text: string; afterChunks: number }
  | { kind: "hang" }
  /** Streams `text` and ends the stream without a stop reason or final usage. */
  | { kind: "no-finish"; text: string };
const KINDS = new Set(["text", "tools", "error", "http-error", "stream-error", "cut", "hang", "no-finish"]);

/**
 * What the fake's cache made of a served request: the estimated tokens read from the cache, written to it and
 * neither; the breakpoints as paths into the body (`system.0`, `messages.3.content.1`, …; none for Gemini); the
 * number of content blocks.
 */
export type CacheVerdict = {
  inputTokens: number;
  readTokens: number;
  writeTokens: number;
  breakpoints: string[];
  blocks: number;
};
export type RecordedRequest = {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: recorded bodies are arbitrary JSON that tests poke into freely.
  body: any;
  cache?: CacheVerdict;
};
export type ErrorAnswer = { status: number; body: unknown; headers?: Record<string, string> };

export type ProviderFake = {
  /** The base URL to give the provider (`baseURL`). */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Requests with header `x-hintline-purpose: title`: kept apart and out of the cache, answered by `enqueueTitle`, else a 404. */
  titleRequests: RecordedRequest[];
  /** Every request line the fake received, `METHOD /path?query` as sent (control paths aside), served or not. */
  requestLines: string[];
  enqueue(...replies: FakeReply[]): void;
  enqueueTitle(...replies: FakeReply[]): void;
  setDefault(reply: FakeReply | ((req: RecordedRequest) => FakeReply)): void;
  /** The smallest prefix (estimated tokens) the cache holds. */
  setCacheMinTokens(tokens: number): void;
  /** Forgets every cached prefix (also done by `reset`). */
  clearCache(): void;
  /** Restricts the model ids the fake knows (others get the provider's 404); `undefined` knows every id. */
  setModels(models: string[] | undefined): void;
  /** Prompts longer than this (estimated tokens) get the provider's "too long" refusal. */
  setContextWindow(tokens: number): void;
  reset(): void;
  close(): Promise<void>;
};

export type FakeOptions = {
  port?: number;
  host?: string;
  cacheMinTokens?: number;
  /** The one API key accepted; any other (or none) gets the provider's authentication error. Default: any non-empty key. */
  apiKey?: string;
  models?: string[];
  contextWindow?: number;
};

/** The settings a fake can change at run time, read by the adapter on every request. */
export type FakeState = {
  cacheMinTokens: number;
  models: string[] | undefined;
  contextWindow: number;
  apiKey: string | undefined;
};

export type ModelCall = {
  res: ServerResponse;
  // biome-ignore lint/suspicious/noExplicitAny: the request body is arbitrary JSON.
  body: any;
  model: string;
  streaming: boolean;
  recorded: RecordedRequest;
  /** Title requests stay out of the cache. */
  cacheable: boolean;
  /** 1, 2, … per model call, for ids. */
  seq: number;
};
export type FakeAdapter = {
  /** Recognises a model call by method and path. */
  route(method: string, url: URL): { model: string; streaming: boolean } | undefined;
  /** Other GET answers (a model list). */
  get?(path: string, state: FakeState): unknown;
  errorBody(status: number, message: string): unknown;
  namedError(name: FakeErrorName, message: string | undefined, model: string): ErrorAnswer;
  /** The provider's refusal of this request before any reply is chosen (key, model, breakpoints, length), if any. */
  refuse(call: ModelCall, headers: IncomingMessage["headers"], url: URL, state: FakeState): ErrorAnswer | undefined;
  /** Answers text, tools, stream-error, cut and no-finish replies. */
  serve(
    call: ModelCall,
    reply: Exclude<FakeReply, { kind: "error" | "http-error" | "hang" }>,
    state: FakeState,
  ): Promise<void>;
  clearCache(): void;
};

/** Word-sized chunks that keep every whitespace character, so joining them gives back the text. */
export function splitWords(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}
export const estimateTokens = (s: string): number => Math.ceil(s.length / 4);
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function isFakeReply(value: unknown): value is FakeReply {
  if (typeof value !== "object" || value === null) return false;
  const kind = (value as { kind?: unknown }).kind ?? "text";
  return typeof kind === "string" && KINDS.has(kind);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { ...headers, "content-type": "application/json" });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

/** Writes raw event-stream text; resolves when written (or at once when the client is gone). */
export function writeRaw(res: ServerResponse, text: string): Promise<void> {
  if (res.destroyed || res.writableEnded) return Promise.resolve();
  return new Promise((resolve) => res.write(text, () => resolve()));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

type DefaultReply = FakeReply | ((req: RecordedRequest) => FakeReply);

export async function startFake(
  adapter: FakeAdapter,
  basePath: string,
  initialDefault: FakeReply,
  options: FakeOptions,
): Promise<ProviderFake> {
  const host = options.host ?? "127.0.0.1";
  const initialState = (): FakeState => ({
    cacheMinTokens: options.cacheMinTokens ?? 1024,
    models: options.models,
    contextWindow: options.contextWindow ?? Number.POSITIVE_INFINITY,
    apiKey: options.apiKey,
  });
  const state = initialState();
  const requests: RecordedRequest[] = [];
  const titleRequests: RecordedRequest[] = [];
  const requestLines: string[] = [];
  const queue: FakeReply[] = [];
  const titleQueue: FakeReply[] = [];
  const sockets = new Set<Socket>();
  let defaultReply: DefaultReply = initialDefault;
  let seq = 0;

  const reset = () => {
    queue.length = 0;
    requests.length = 0;
    requestLines.length = 0;
    titleQueue.length = 0;
    titleRequests.length = 0;
    defaultReply = initialDefault;
    Object.assign(state, initialState());
    adapter.clearCache();
  };
  const fail = (res: ServerResponse, answer: ErrorAnswer) => sendJson(res, answer.status, answer.body, answer.headers);

  async function modelCall(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    route: { model: string; streaming: boolean },
  ) {
    const raw = await readBody(req);
    const forTitle = req.headers["x-hintline-purpose"] === "title";
    const recorded: RecordedRequest = { path: url.pathname, headers: { ...req.headers }, body: raw };
    (forTitle ? titleRequests : requests).push(recorded);
    try {
      recorded.body = JSON.parse(raw);
    } catch {
      return fail(res, { status: 400, body: adapter.errorBody(400, "The request body is not valid JSON.") });
    }
    const call: ModelCall = {
      res,
      body: recorded.body,
      model: route.model,
      streaming: route.streaming,
      recorded,
      cacheable: !forTitle,
      seq: ++seq,
    };
    const refusal = adapter.refuse(call, req.headers, url, state);
    if (refusal) return fail(res, refusal);
    let reply: FakeReply;
    try {
      reply = forTitle
        ? (titleQueue.shift() ?? {
            kind: "http-error",
            status: 404,
            body: adapter.errorBody(404, "This fake names no conversations unless told to."),
          })
        : (queue.shift() ?? (typeof defaultReply === "function" ? defaultReply(recorded) : defaultReply));
    } catch (error) {
      return fail(res, { status: 500, body: adapter.errorBody(500, `Fake default reply threw: ${String(error)}`) });
    }
    switch (reply.kind) {
      case "hang":
        return; // never answers; the socket is destroyed when the client aborts or the fake closes
      case "http-error":
        return fail(res, {
          status: reply.status,
          body: reply.body ?? adapter.errorBody(reply.status, `Fake upstream error ${reply.status}`),
          headers: reply.headers,
        });
      case "error":
        return fail(res, adapter.namedError(reply.error, reply.message, call.model));
      default:
        return adapter.serve(call, reply, state);
    }
  }

  async function control(req: IncomingMessage, res: ServerResponse, path: string) {
    const ok = (extra: object = {}) => sendJson(res, 200, { ok: true, ...extra });
    const bad = (message: string) => sendJson(res, 400, { error: { message } });
    if (req.method === "GET" && path === "/__fake/requests") return sendJson(res, 200, requests);
    if (req.method !== "POST") return sendJson(res, 405, { error: { message: `Use POST for ${path}` } });
    let payload: unknown;
    try {
      const raw = await readBody(req);
      payload = raw.trim() ? JSON.parse(raw) : undefined;
    } catch {
      return bad("Control body is not valid JSON.");
    }
    const field = (name: string) => (payload as Record<string, unknown> | undefined)?.[name];
    switch (path) {
      case "/__fake/reset":
        reset();
        return ok();
      case "/__fake/enqueue":
      case "/__fake/enqueue-title": {
        const replies = Array.isArray(payload) ? payload : [payload];
        if (!replies.every(isFakeReply)) return bad("Expected FakeReply[].");
        const target = path === "/__fake/enqueue" ? queue : titleQueue;
        target.push(...replies);
        return ok({ queued: target.length });
      }
      case "/__fake/default":
        if (!isFakeReply(payload)) return bad("Expected a FakeReply.");
        defaultReply = payload;
        return ok();
      case "/__fake/cache": {
        const minTokens = field("minTokens");
        if (field("clear") === true) adapter.clearCache();
        if (minTokens === undefined) return ok();
        if (!Number.isSafeInteger(minTokens) || (minTokens as number) < 0)
          return bad("Expected { minTokens: a whole number ≥ 0 }.");
        state.cacheMinTokens = minTokens as number;
        return ok();
      }
      case "/__fake/models": {
        const models = field("models");
        if (models !== null && !(Array.isArray(models) && models.every((m) => typeof m === "string")))
          return bad("Expected { models: string[] | null }.");
        state.models = models ?? undefined;
        return ok();
      }
      default:
        return sendJson(res, 404, { error: { message: `Unknown control path ${path}` } });
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    res.on("error", () => {});
    const url = new URL(req.url ?? "/", "http://fake.invalid");
    const method = req.method ?? "GET";
    if (url.pathname.startsWith("/__fake/")) return control(req, res, url.pathname);
    requestLines.push(`${method} ${req.url ?? "/"}`);
    const route = adapter.route(method, url);
    if (route) return modelCall(req, res, url, route);
    const answer = method === "GET" ? adapter.get?.(url.pathname, state) : undefined;
    if (answer !== undefined) return sendJson(res, 200, answer);
    return sendJson(res, 404, adapter.errorBody(404, `Unknown path: ${method} ${url.pathname}`));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      sendJson(res, 500, adapter.errorBody(500, `Fake crashed: ${String(error)}`)),
    );
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
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}${basePath}`,
    port,
    requests,
    titleRequests,
    requestLines,
    enqueue: (...replies) => void queue.push(...replies),
    enqueueTitle: (...replies) => void titleQueue.push(...replies),
    setDefault(reply) {
      defaultReply = reply;
    },
    setCacheMinTokens(tokens) {
      state.cacheMinTokens = tokens;
    },
    clearCache: () => adapter.clearCache(),
    setModels(models) {
      state.models = models;
    },
    setContextWindow(tokens) {
      state.contextWindow = tokens;
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
