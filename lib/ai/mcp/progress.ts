// MCP progress notifications for tool calls, through the AI SDK's MCP client's public seams only. The client
// (@ai-sdk/mcp) neither asks for progress (no `_meta.progressToken` on tools/call) nor accepts a notification (it
// reports "Unsupported message type"), so the transports it is given do both:
// - a call that wants progress sends its arguments with a token under PROGRESS_ARGUMENT (watchProgress); the
//   transport moves it to `params._meta.progressToken` before the request leaves (withProgressToken);
// - a `notifications/progress` message that comes back goes to that call's listener and never reaches the client:
//   over stdio the wrapped transport's onmessage takes it (progressTransport); over HTTP the wrapped fetch filters
//   the server's event streams (the POST replies of Streamable HTTP, the GET stream of SSE) and forwards everything
//   else byte for byte (progressEventFilter, used by mcp-fetch.ts), counting what it reads against limits.ts.
// Anything malformed passes through unchanged: the client judges it as it would have.
import { randomUUID } from "node:crypto";
import type {
  JSONRPCMessage,
  MCPClient,
  MCPTransport,
  MCPTransportCloseOptions,
  MCPTransportSendOptions,
} from "@ai-sdk/mcp";
import { McpLimitError, messageTooLarge, responseTooLarge } from "./limits.ts";

/** The argument that carries a call's progress token from watchProgress to the transport (never sent to the server). */
export const PROGRESS_ARGUMENT = "_hintlineProgressToken";
const PROGRESS_METHOD = "notifications/progress";
/** How much of a server's progress message is kept (it is untrusted text). */
export const PROGRESS_MESSAGE_CAP = 200;

export type McpProgress = { progress?: number; total?: number; message?: string };
type Listener = (progress: McpProgress) => void;

const listeners = new Map<string, Listener>();
/** The clients whose transport handles progress (connect.ts makes every client so). */
const capable = new WeakSet<object>();

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const finite = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

/** Marks a client whose transport was made by progressTransport or mcpFetch. */
export function withProgress<T extends MCPClient>(client: T): T {
  capable.add(client);
  return client;
}

/**
 * Asks for a call's progress: the arguments to send (with a fresh token, when the client can carry it) and `stop`,
 * which ends the listening (always call it). Without a capable client the arguments stay as they are.
 */
export function watchProgress(
  client: MCPClient,
  args: Record<string, unknown>,
  listener: Listener,
): { args: Record<string, unknown>; stop: () => void } {
  if (!capable.has(client)) return { args, stop: () => undefined };
  const token = `hintline-${randomUUID()}`;
  listeners.set(token, listener);
  return { args: { ...args, [PROGRESS_ARGUMENT]: token }, stop: () => listeners.delete(token) };
}

/** A server's progress message as one plain line: control characters and tags' brackets out, capped. */
function progressMessage(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const line = value
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
    .replace(/[<>]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!line) return undefined;
  return line.length > PROGRESS_MESSAGE_CAP ? `${line.slice(0, PROGRESS_MESSAGE_CAP)}…` : line;
}

/** Whether a message is a progress notification; if so it is reported to its call's listener (if any is listening). */
export function takeProgress(
  message: unknown,
  report: (token: string, progress: McpProgress) => void = reportProgress,
): boolean {
  if (!isObject(message) || message.method !== PROGRESS_METHOD || "id" in message) return false;
  const params = isObject(message.params) ? message.params : {};
  const token = params.progressToken;
  if (typeof token === "string" || typeof token === "number") {
    report(String(token), {
      progress: finite(params.progress),
      total: finite(params.total),
      message: progressMessage(params.message),
    });
  }
  return true;
}

function reportProgress(token: string, progress: McpProgress): void {
  listeners.get(token)?.(progress);
}

/** A tools/call request with its PROGRESS_ARGUMENT moved to `params._meta.progressToken`; anything else unchanged. */
export function withProgressToken<T>(message: T): T {
  if (
    !isObject(message) ||
    message.method !== "tools/call" ||
    !isObject(message.params) ||
    !isObject(message.params.arguments)
  )
    return message;
  const { params } = message;
  const args = params.arguments as Record<string, unknown>;
  if (!Object.hasOwn(args, PROGRESS_ARGUMENT)) return message;
  const { [PROGRESS_ARGUMENT]: token, ...rest } = args;
  const valid = typeof token === "string" && token.length > 0;
  const meta = isObject(params._meta) ? params._meta : undefined;
  const nextMeta = valid ? { ...meta, progressToken: token } : meta;
  return { ...message, params: { ...params, arguments: rest, ...(nextMeta ? { _meta: nextMeta } : {}) } } as T;
}

/** A JSON-RPC body (one message or a batch) as withProgressToken leaves it; the same text when nothing changes. */
export function withProgressTokenInBody(body: string): string {
  if (!body.includes(PROGRESS_ARGUMENT)) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  const next = Array.isArray(parsed) ? parsed.map((m) => withProgressToken(m)) : withProgressToken(parsed);
  const changed = Array.isArray(parsed) ? (next as unknown[]).some((m, i) => m !== parsed[i]) : next !== parsed;
  return changed ? JSON.stringify(next) : body;
}

/**
 * Splits SSE text, pushed in pieces, into whole events, each with the blank line that ends it, exactly as received.
 * Lines end with CRLF, LF or CR (a CRLF split between two pieces counts once). Each piece is scanned once. An event
 * longer than `maxEventChars` throws McpLimitError as soon as it is (nothing more of it is kept).
 */
export class SseEventSplitter {
  /** The unfinished event's text so far, in pieces (joined once it is whole). */
  private pending: string[] = [];
  private pendingChars = 0;
  private atLineStart = true;
  private afterCr = false;

  constructor(private readonly maxEventChars = Number.POSITIVE_INFINITY) {}

  private keep(text: string): void {
    this.pendingChars += text.length;
    if (this.pendingChars > this.maxEventChars) {
      this.pending = [];
      throw messageTooLarge("an event", this.maxEventChars);
    }
    this.pending.push(text);
  }

  /** The events that `piece` completes. */
  push(piece: string): string[] {
    const events: string[] = [];
    let start = 0;
    let pos = 0;
    if (this.afterCr && piece.length) {
      this.afterCr = false;
      // The LF of a CRLF whose CR ended the previous piece: the same line end.
      if (piece.charCodeAt(0) === 10) pos = 1;
    }
    while (pos < piece.length) {
      const c = piece.charCodeAt(pos);
      if (c !== 10 && c !== 13) {
        this.atLineStart = false;
        pos++;
        continue;
      }
      const crlf = c === 13 && piece.charCodeAt(pos + 1) === 10;
      const blank = this.atLineStart;
      pos += crlf ? 2 : 1;
      if (c === 13 && !crlf && pos === piece.length) this.afterCr = true;
      this.atLineStart = true;
      if (blank) {
        this.keep(piece.slice(start, pos));
        events.push(this.pending.join(""));
        this.pending = [];
        this.pendingChars = 0;
        start = pos;
      }
    }
    if (start < piece.length) this.keep(piece.slice(start));
    return events;
  }

  /** What is left (an unfinished event) once the stream ends. */
  end(): string {
    const rest = this.pending.join("");
    this.pending = [];
    this.pendingChars = 0;
    this.atLineStart = true;
    this.afterCr = false;
    return rest;
  }
}

/** The JSON-RPC message an SSE event carries (a "message" event with data), or undefined. */
function sseMessageText(event: string): string | undefined {
  let type = "";
  const data: string[] = [];
  for (const line of event.split(/\r\n|\r|\n/)) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const raw = colon === -1 ? "" : line.slice(colon + 1);
    const value = raw.startsWith(" ") ? raw.slice(1) : raw;
    if (field === "event") type = value;
    else if (field === "data") data.push(value);
  }
  return (type === "" || type === "message") && data.length ? data.join("\n") : undefined;
}

/** Whether an SSE event is a progress notification (then reported); malformed ones are not. */
export function isProgressEvent(event: string, report?: (token: string, progress: McpProgress) => void): boolean {
  if (!event.includes(PROGRESS_METHOD)) return false;
  const text = sseMessageText(event);
  if (text === undefined) return false;
  try {
    return takeProgress(JSON.parse(text), report);
  } catch {
    return false;
  }
}

export type EventStreamLimits = {
  /** The longest event, in characters once decoded (an event of this many bytes always fits). */
  maxEventChars: number;
  /** The most bytes read from the stream in all. */
  maxBytes: number;
  /** What to hand on in place of the rest once a limit is reached (an error answer for the calls waiting); the stream then ends. */
  onLimit: (error: McpLimitError) => string;
};

/**
 * An SSE byte stream without its progress notifications (reported instead); every other byte as received. Text is
 * decoded and encoded again as UTF-8 with any BOM kept, so valid UTF-8 comes out identical (the client decodes it the
 * same way). With `limits`, an event or a stream past its limit ends the stream (its source is cancelled: nothing
 * more is read) after what `onLimit` says.
 */
export function progressEventFilter(
  report?: (token: string, progress: McpProgress) => void,
  limits?: EventStreamLimits,
): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const encoder = new TextEncoder();
  const splitter = new SseEventSplitter(limits?.maxEventChars);
  const maxBytes = limits?.maxBytes ?? Number.POSITIVE_INFINITY;
  let bytes = 0;
  let stopped = false;
  const forward = (controller: TransformStreamDefaultController<Uint8Array>, events: string[], rest = "") => {
    const text = events.filter((event) => !isProgressEvent(event, report)).join("") + rest;
    if (text) controller.enqueue(encoder.encode(text));
  };
  const guarded = (controller: TransformStreamDefaultController<Uint8Array>, read: () => void) => {
    if (stopped) return;
    try {
      read();
    } catch (error) {
      if (!(error instanceof McpLimitError) || !limits) throw error;
      stopped = true;
      const instead = limits.onLimit(error);
      if (instead) controller.enqueue(encoder.encode(instead));
      controller.terminate();
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      guarded(controller, () => {
        bytes += chunk.byteLength;
        if (bytes > maxBytes) throw responseTooLarge(maxBytes);
        forward(controller, splitter.push(decoder.decode(chunk, { stream: true })));
      });
    },
    flush(controller) {
      guarded(controller, () => forward(controller, splitter.push(decoder.decode()), splitter.end()));
    },
  });
}

/** A stdio (or any) transport whose tools/call requests carry their progress token and whose progress is taken out. */
class ProgressTransport implements MCPTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(private readonly inner: MCPTransport) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message) => {
      if (!takeProgress(message)) this.onmessage?.(message);
    };
  }
  get supportsProtocolVersionDiscovery() {
    return this.inner.supportsProtocolVersionDiscovery;
  }
  get waitsForProtocolVersionDiscovery() {
    return this.inner.waitsForProtocolVersionDiscovery;
  }
  get supportsMcpToolParameterHeaders() {
    return this.inner.supportsMcpToolParameterHeaders;
  }
  get protocolVersion() {
    return this.inner.protocolVersion;
  }
  set protocolVersion(version: string | undefined) {
    this.inner.protocolVersion = version;
  }
  setProtocolVersion(version: string): void {
    if (this.inner.setProtocolVersion) this.inner.setProtocolVersion(version);
    else this.inner.protocolVersion = version;
  }
  start(): Promise<void> {
    return this.inner.start();
  }
  send(message: JSONRPCMessage, options?: MCPTransportSendOptions): Promise<void> {
    const prepared = withProgressToken(message);
    return options === undefined ? this.inner.send(prepared) : this.inner.send(prepared, options);
  }
  close(options?: MCPTransportCloseOptions): Promise<void> {
    return options === undefined ? this.inner.close() : this.inner.close(options);
  }
}

export function progressTransport(inner: MCPTransport): MCPTransport {
  return new ProgressTransport(inner);
}

/**
 * A timeout that progress can restart: `signal` aborts (TimeoutError) once `ms` pass without a `reset`, or at the latest
 * `limitMs` after the start however often it was reset (`reachedLimit` then says so).
 */
export function resettableTimeout(
  ms: number,
  limitMs = Number.POSITIVE_INFINITY,
): { signal: AbortSignal; reset: () => void; clear: () => void; reachedLimit: () => boolean } {
  const controller = new AbortController();
  const deadline = Date.now() + limitMs;
  let limited = false;
  const fire = () =>
    controller.abort(
      new DOMException(
        limited ? `No answer within ${limitMs} ms` : `No answer or progress within ${ms} ms`,
        "TimeoutError",
      ),
    );
  const schedule = () => {
    const left = deadline - Date.now();
    limited = left <= ms;
    return setTimeout(fire, Math.max(0, Math.min(ms, left)));
  };
  let timer = schedule();
  return {
    signal: controller.signal,
    reset: () => {
      if (controller.signal.aborted) return;
      clearTimeout(timer);
      timer = schedule();
    },
    clear: () => clearTimeout(timer),
    reachedLimit: () => controller.signal.aborted && limited,
  };
}
