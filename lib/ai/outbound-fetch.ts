// A fetch for user-given URLs (an MCP server's): the address rules of outbound-address.ts checked before anything is
// sent (the host as written) and on every connection (each address a name resolves to, the socket connecting to the
// address checked), no redirect followed, no compression asked for (what is counted is what is read), an optional cap
// on the bytes of a response, and the status line's reason phrase the standard one rather than the server's words.
// Node's own fetch (undici) takes no per-connection lookup without the undici package, so this speaks HTTP through
// node:http and node:https, whose sockets do; it handles what the AI SDK's MCP transports send (string bodies).
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import { checkedLookup, OutboundAddressError, type Resolve, refusedHost } from "./outbound-address.ts";

type Fetch = typeof globalThis.fetch;

export type OutboundFetchOptions = {
  /** Whether loopback, private and link-local addresses may be reached (privateAddressesAllowed() for user-given URLs). */
  allowPrivate: boolean;
  /** A response whose body grows past this many bytes errors (ResponseTooLargeError) and is read no further. */
  maxResponseBytes?: number;
  /** For tests: how names resolve (each call gets agents of its own then). */
  resolve?: Resolve;
};

export class ResponseTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the answer was longer than ${limit.toLocaleString("en-US")} bytes, the most that is read`);
    this.name = "ResponseTooLargeError";
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

type Agents = { "http:": http.Agent; "https:": https.Agent };
const agentsOf = (allowPrivate: boolean, resolve?: Resolve): Agents => {
  // Idle kept-alive sockets close after 5 s, as Node's global agent's do.
  const options = { keepAlive: true, timeout: 5_000, lookup: checkedLookup(allowPrivate, resolve) };
  return { "http:": new http.Agent(options), "https:": new https.Agent(options) };
};
// Sockets are pooled per rule, so that a socket opened where private addresses were allowed never serves a request where they are not.
const sharedAgents = { allowed: agentsOf(true), refused: agentsOf(false) };

/** A byte-counting pass-through that errors once more than `limit` bytes went through. */
export function byteLimit(limit: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > limit) controller.error(new ResponseTooLargeError(limit));
      else controller.enqueue(chunk);
    },
  });
}

function requestBody(body: RequestInit["body"]): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError("outbound fetch sends only string or byte bodies");
}

function responseHeaders(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header the Headers class refuses is left out.
    }
  }
  return headers;
}

const failed = (cause: unknown) => new TypeError("fetch failed", { cause });

export function outboundFetch({ allowPrivate, maxResponseBytes, resolve }: OutboundFetchOptions): Fetch {
  const agents = resolve ? agentsOf(allowPrivate, resolve) : allowPrivate ? sharedAgents.allowed : sharedAgents.refused;
  return (input, init = {}) =>
    new Promise<Response>((resolveResponse, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.protocol !== "http:" && url.protocol !== "https:")
        return reject(failed(new Error(`${url.protocol} URLs are not fetched`)));
      const refusal = allowPrivate ? undefined : refusedHost(url.hostname);
      if (refusal) return reject(refusal);
      const { signal } = init;
      if (signal?.aborted) return reject(signal.reason);
      let body: Buffer | undefined;
      try {
        body = requestBody(init.body);
      } catch (error) {
        return reject(error);
      }
      const method = (init.method ?? "GET").toUpperCase();
      const headers = Object.fromEntries(new Headers(init.headers));
      if (body) headers["content-length"] = String(body.byteLength);
      const client = url.protocol === "https:" ? https : http;
      const request = client.request(url, {
        method,
        headers,
        agent: agents[url.protocol],
        ...(signal ? { signal } : {}),
      });
      request.on("error", (error) => {
        if (signal?.aborted) reject(signal.reason);
        else reject(error instanceof OutboundAddressError ? error : failed(error));
      });
      request.on("response", (incoming) => {
        const status = incoming.statusCode ?? 0;
        if (REDIRECT_STATUSES.has(status) && init.redirect !== "manual") {
          incoming.destroy();
          return reject(
            failed(new Error(`the server answered with a redirect (HTTP ${status}), which is not followed`)),
          );
        }
        let stream: ReadableStream<Uint8Array> | null = null;
        if (method === "HEAD" || NULL_BODY_STATUSES.has(status)) incoming.resume();
        else stream = Readable.toWeb(incoming) as ReadableStream<Uint8Array>;
        if (stream && maxResponseBytes !== undefined) stream = stream.pipeThrough(byteLimit(maxResponseBytes));
        try {
          resolveResponse(
            new Response(stream, {
              status,
              statusText: http.STATUS_CODES[status] ?? "",
              headers: responseHeaders(incoming.rawHeaders),
            }),
          );
        } catch (error) {
          incoming.destroy();
          reject(failed(error));
        }
      });
      request.end(body);
    });
}
