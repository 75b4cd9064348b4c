// A scriptable fake of the Gemini API (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse` and
// `:generateContent`) on a real HTTP server, speaking the wire format `@ai-sdk/google` parses: candidates with text
// and functionCall parts, finishReason, usageMetadata with Gemini's implicit cache (cachedContentTokenCount for the
// longest prefix shared with an earlier request, from a minimum size), and Google's error bodies. Scripted like the
// OpenAI fake (fake-core.ts).
import type { ServerResponse } from "node:http";
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
import { block, type CacheBlock, ImplicitCache, type Prefixes, prefixes } from "./prefix-cache.ts";

export type { FakeReply, ProviderFake as GeminiFake, RecordedRequest } from "./fake-core.ts";

/** Gemini's smallest implicitly cached prompt on 2.5 Flash (Pro's is larger: set `cacheMinTokens`). */
export const DEFAULT_CACHE_MIN_TOKENS = 1024;
export const DEFAULT_CONTEXT_WINDOW = 1_048_576;

const STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};
const errorBody = (code: number, message: string, details?: unknown[]) => ({
  error: { code, message, status: STATUS[code] ?? "UNKNOWN", ...(details ? { details } : {}) },
});
const errorInfo = (reason: string) => [
  { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "googleapis.com" },
];

const NAMED: Record<FakeErrorName, { code: number; message: (model: string) => string; details?: unknown[] }> = {
  auth: { code: 403, message: () => "The caller does not have permission", details: errorInfo("PERMISSION_DENIED") },
  "unknown-model": {
    code: 404,
    message: (model) =>
      `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
  },
  "rate-limit": {
    code: 429,
    message: () => "You exceeded your current quota, please check your plan and billing details.",
    details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1s" }],
  },
  overloaded: { code: 503, message: () => "The model is overloaded. Please try again later." },
  "too-long": {
    code: 400,
    message: () =>
      `The input token count (${DEFAULT_CONTEXT_WINDOW + 1}) exceeds the maximum number of tokens allowed (${DEFAULT_CONTEXT_WINDOW}).`,
  },
  invalid: { code: 400, message: () => "Request contains an invalid argument." },
  server: {
    code: 500,
    message: () =>
      "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
  },
};
function namedError(name: FakeErrorName, message: string | undefined, model: string): ErrorAnswer {
  const e = NAMED[name];
  return { status: e.code, body: errorBody(e.code, message ?? e.message(model), e.details) };
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON.
type Json = any;

/** The body's blocks in cache order: system instruction parts, function declarations, tool config, content parts. */
function analyse(body: Json, model: string): Prefixes {
  const blocks: CacheBlock[] = [];
  for (const [i, part] of (body.systemInstruction?.parts ?? []).entries())
    blocks.push(block(`systemInstruction.parts.${i}`, "system", JSON.stringify(part)));
  for (const [i, t] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    if (Array.isArray(t?.functionDeclarations)) {
      for (const [j, d] of t.functionDeclarations.entries())
        blocks.push(block(`tools.${i}.functionDeclarations.${j}`, "function", JSON.stringify(d)));
    } else blocks.push(block(`tools.${i}`, "tool", JSON.stringify(t)));
  }
  if (body.toolConfig != null) blocks.push(block("toolConfig", "toolConfig", JSON.stringify(body.toolConfig)));
  for (const [i, content] of (body.contents as Json[]).entries()) {
    for (const [j, part] of (Array.isArray(content?.parts) ? content.parts : []).entries()) {
      blocks.push(
        block(`contents.${i}.parts.${j}`, `${content?.role}\u0000${j === 0 ? "start" : ""}`, JSON.stringify(part)),
      );
    }
  }
  return prefixes(model, blocks);
}

type Plan = { chunks: Json[][]; usage: () => Json };

/** The opaque signature the fake puts on the first function call of request `seq`. */
export const thoughtSignature = (seq: number) => Buffer.from(`fake-thought-signature-${seq}`).toString("base64");

function plan(
  call: ModelCall,
  reply: { text?: string; calls?: { id?: string; name: string; arguments: unknown }[]; usage?: FakeUsage },
  p: Prefixes,
  read: number,
): Plan {
  const text = reply.text ?? "";
  // Like Gemini 3: the step's first function call carries a thought signature the client must send back with it.
  const calls = (reply.calls ?? []).map((c, i) => {
    const args = typeof c.arguments === "string" ? JSON.parse(c.arguments) : (c.arguments ?? {});
    const signature = i === 0 ? { thoughtSignature: thoughtSignature(call.seq) } : {};
    return { functionCall: { ...(c.id ? { id: c.id } : {}), name: c.name, args }, ...signature };
  });
  const chunks: Json[][] = splitWords(text).map((word) => [{ text: word }]);
  if (calls.length > 0) chunks.push(calls);
  if (chunks.length === 0) chunks.push([{ text: "" }]);
  const u = reply.usage ?? {};
  const prompt = u.promptTokens ?? p.total;
  const cached = Math.min(u.cachedTokens ?? read, prompt);
  const output =
    u.completionTokens ??
    estimateTokens(text + calls.map((c) => c.functionCall.name + JSON.stringify(c.functionCall.args)).join(""));
  const usage = () => ({
    promptTokenCount: prompt,
    candidatesTokenCount: output,
    totalTokenCount: prompt + output,
    // Like Gemini: the field is absent when nothing was read from the cache.
    ...(cached > 0
      ? { cachedContentTokenCount: cached, cacheTokensDetails: [{ modality: "TEXT", tokenCount: cached }] }
      : {}),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: prompt }],
  });
  return { chunks, usage };
}

const candidate = (parts: Json[], finish: boolean) => ({
  content: { parts, role: "model" },
  ...(finish ? { finishReason: "STOP" } : {}),
  index: 0,
});

type StreamOptions = {
  delayMs?: number;
  cutAfter?: number;
  noFinish?: boolean;
  errorAfter?: number;
  error?: ErrorAnswer;
};

async function stream(res: ServerResponse, call: ModelCall, p: Plan, opts: StreamOptions) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const base = { modelVersion: call.model, responseId: `fake-response-${call.seq}` };
  const send = (data: object) => writeRaw(res, `data: ${JSON.stringify(data)}\r\n\r\n`);
  const stopAt = opts.cutAfter ?? opts.errorAfter;
  for (const [i, parts] of p.chunks.entries()) {
    if (stopAt !== undefined && i >= stopAt) break;
    if (i > 0 && opts.delayMs) await sleep(opts.delayMs);
    const last = i === p.chunks.length - 1 && !opts.noFinish && stopAt === undefined;
    await send({ candidates: [candidate(parts, last)], ...(last ? { usageMetadata: p.usage() } : {}), ...base });
  }
  if (opts.cutAfter !== undefined) return void res.destroy(); // no final chunk, no terminating HTTP chunk: a broken stream
  if (opts.error) await send(opts.error.body as object);
  if (!res.destroyed) res.end();
}

function adapter(): FakeAdapter {
  const cache = new ImplicitCache();
  const analyses = new WeakMap<object, Prefixes>();
  return {
    route(method, url) {
      const match = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/.exec(url.pathname);
      if (method !== "POST" || !match) return undefined;
      return { model: decodeURIComponent(match[1] as string), streaming: match[2] === "streamGenerateContent" };
    },
    get: (path, state) => {
      if (path !== "/v1beta/models") return undefined;
      const models = (state.models ?? ["gemini-fake"]).map((id) => ({
        name: `models/${id}`,
        displayName: id,
        inputTokenLimit: state.contextWindow,
        outputTokenLimit: 65_536,
        supportedGenerationMethods: ["generateContent", "countTokens"],
      }));
      return { models };
    },
    errorBody: (status, message) => errorBody(status, message),
    namedError,
    refuse(call, headers, url, state): ErrorAnswer | undefined {
      const key = headers["x-goog-api-key"] ?? url.searchParams.get("key") ?? undefined;
      if (!key) {
        const message =
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.";
        return { status: 403, body: errorBody(403, message) };
      }
      // Google answers a wrong key with 400 INVALID_ARGUMENT and the reason API_KEY_INVALID (not 401).
      if (state.apiKey !== undefined && key !== state.apiKey) {
        return {
          status: 400,
          body: errorBody(400, "API key not valid. Please pass a valid API key.", errorInfo("API_KEY_INVALID")),
        };
      }
      const invalid = (message: string): ErrorAnswer => ({ status: 400, body: errorBody(400, message) });
      if (call.streaming && url.searchParams.get("alt") !== "sse")
        return invalid("This fake streams only with alt=sse (as @ai-sdk/google asks).");
      const body = call.body;
      if (typeof body !== "object" || body === null || Array.isArray(body))
        return invalid("Invalid JSON payload received.");
      if (!Array.isArray(body.contents) || body.contents.length === 0)
        return invalid("* GenerateContentRequest.contents: contents is not specified");
      if (state.models && !state.models.includes(call.model)) return namedError("unknown-model", undefined, call.model);
      const p = analyse(body, call.model);
      if (p.total > state.contextWindow) {
        return invalid(
          `The input token count (${p.total}) exceeds the maximum number of tokens allowed (${state.contextWindow}).`,
        );
      }
      analyses.set(body, p);
      return undefined;
    },
    async serve(call, reply, state) {
      const p = analyses.get(call.body) ?? prefixes(call.model, []);
      const verdict = call.cacheable
        ? cache.apply(p, state.cacheMinTokens)
        : { readTokens: 0, writeTokens: 0, inputTokens: p.total, breakpoints: [] };
      call.recorded.cache = { ...verdict, blocks: p.blocks.length };
      const pl = plan(
        call,
        reply.kind === "tools" ? reply : { text: reply.text, usage: "usage" in reply ? reply.usage : undefined },
        p,
        verdict.readTokens,
      );
      const { res } = call;
      if (!call.streaming) {
        if (reply.kind === "cut") return void res.destroy();
        if (reply.kind === "stream-error") {
          const e = namedError(reply.error ?? "overloaded", reply.message, call.model);
          res.writeHead(e.status, { "content-type": "application/json" });
          return void res.end(JSON.stringify(e.body));
        }
        const parts = [
          ...(reply.text ? [{ text: reply.text }] : []),
          ...(pl.chunks.at(-1)?.[0]?.functionCall ? (pl.chunks.at(-1) as Json[]) : []),
        ];
        const finish = reply.kind !== "no-finish";
        const json = {
          candidates: [candidate(parts, finish)],
          ...(finish ? { usageMetadata: pl.usage() } : {}),
          modelVersion: call.model,
          responseId: `fake-response-${call.seq}`,
        };
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(JSON.stringify(json));
      }
      switch (reply.kind) {
        case "cut":
          return stream(res, call, pl, { cutAfter: reply.afterChunks });
        case "no-finish":
          return stream(res, call, pl, { noFinish: true });
        case "stream-error":
          return stream(res, call, pl, {
            errorAfter: reply.afterChunks ?? 2,
            error: namedError(reply.error ?? "overloaded", reply.message, call.model),
          });
        default:
          return stream(res, call, pl, { delayMs: reply.chunkDelayMs });
      }
    },
    clearCache: () => cache.clear(),
  };
}

export function startGeminiFake(options: FakeOptions = {}): Promise<ProviderFake> {
  return startFake(adapter(), "/v1beta", { text: "Hello from the Gemini fake." } satisfies FakeReply, {
    ...options,
    cacheMinTokens: options.cacheMinTokens ?? DEFAULT_CACHE_MIN_TOKENS,
    contextWindow: options.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
  });
}
