// The fetch the AI SDK's MCP HTTP transports (Streamable HTTP, SSE) are given: outbound-fetch.ts's address rules,
// progress tokens moved into place and progress taken out of event streams (progress.ts), and every byte read
// counted (limits.ts). What a server sends beyond a limit is never read: the calls waiting on that response get a
// JSON-RPC error saying which limit (the client rejects them at once, the caller makes it an McpProtocolError), and
// the connection is dropped. An HTTP error's body is never handed on (the client would put it into its error message,
// which a person reads in the server's status): only a JSON-RPC error in it counts, as its code and a plain, capped
// message, and the status line's reason is the standard one.
import { outboundFetch } from "../outbound-fetch.ts";
import {
  MCP_LIMIT_ERROR_CODE,
  MCP_MESSAGE_MAX_BYTES,
  MCP_RESPONSE_MAX_BYTES,
  type McpLimitError,
  messageTooLarge,
} from "./limits.ts";
import { progressEventFilter, withProgressTokenInBody } from "./progress.ts";

type Fetch = typeof globalThis.fetch;
type RequestId = string | number;

/** What the client is told instead of an HTTP error's body. */
export const REMOTE_BODY_NOT_SHOWN = "(the server's answer is not shown)";
/** How much of a server's JSON-RPC error message is kept (it is untrusted text). */
export const REMOTE_ERROR_MESSAGE_CAP = 300;
/** The requests sent over one connection that an SSE transport's stream may still answer (the oldest are forgotten). */
const REMEMBERED_REQUESTS = 256;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is RequestId =>
  typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

/** The ids of the JSON-RPC requests in a body (one message or a batch): the answers a response may carry. */
export function requestIds(body: string): RequestId[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  return (Array.isArray(parsed) ? parsed : [parsed])
    .filter((m) => isObject(m) && typeof m.method === "string" && isId(m.id))
    .map((m) => (m as { id: RequestId }).id);
}

const errorAnswer = (id: RequestId, message: string, code = MCP_LIMIT_ERROR_CODE) => ({
  jsonrpc: "2.0",
  id,
  error: { code, message },
});
const eventsOf = (answers: object[]) =>
  answers.map((answer) => `event: message\ndata: ${JSON.stringify(answer)}\n\n`).join("");

/** A server's JSON-RPC error message as one plain, capped line. */
const plainMessage = (text: string) => {
  const line = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > REMOTE_ERROR_MESSAGE_CAP ? `${line.slice(0, REMOTE_ERROR_MESSAGE_CAP)}…` : line;
};

/** A body's text, or a limit error once it grows past `limit` bytes (the rest is not read). */
async function readText(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string | McpLimitError> {
  if (!body) return "";
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel().catch(() => undefined);
      return messageTooLarge("a body");
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** An HTTP error's body as the client may see it: a JSON-RPC error made plain, or nothing of the server's words. */
function errorBody(text: string | McpLimitError): string {
  if (typeof text !== "string") return REMOTE_BODY_NOT_SHOWN;
  try {
    const parsed: unknown = JSON.parse(text);
    if (
      isObject(parsed) &&
      isObject(parsed.error) &&
      typeof parsed.error.code === "number" &&
      typeof parsed.error.message === "string"
    ) {
      const id = isId(parsed.id) ? { id: parsed.id } : {};
      return JSON.stringify({
        jsonrpc: "2.0",
        ...id,
        error: { code: parsed.error.code, message: plainMessage(parsed.error.message) },
      });
    }
  } catch {
    // Not JSON: not shown.
  }
  return REMOTE_BODY_NOT_SHOWN;
}

function answer(response: Response, body: BodyInit | null, contentType?: string): Response {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  if (contentType) headers.set("content-type", contentType);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** `response` as the client may read it, with `waiting` the ids of the calls it may answer. */
async function guarded(response: Response, method: string, waiting: () => RequestId[]): Promise<Response> {
  if (!response.ok) return answer(response, errorBody(await readText(response.body, MCP_MESSAGE_MAX_BYTES)));
  const contentType = response.headers.get("content-type") ?? "";
  // The client reads a GET's body as an event stream whatever its content type.
  if (method === "GET" || contentType.includes("text/event-stream")) {
    if (!response.body) return response;
    const onLimit = (error: McpLimitError) => eventsOf(waiting().map((id) => errorAnswer(id, error.message)));
    return answer(
      response,
      response.body.pipeThrough(
        progressEventFilter(undefined, {
          maxEventChars: MCP_MESSAGE_MAX_BYTES,
          maxBytes: MCP_RESPONSE_MAX_BYTES,
          onLimit,
        }),
      ),
    );
  }
  const ids = waiting();
  if (!ids.length || response.status === 202) {
    // Nothing waits for this body (a notification's answer): the client does not read it, so neither does Hintline.
    await response.body?.cancel().catch(() => undefined);
    return answer(response, null);
  }
  let problem: string;
  if (!contentType.includes("application/json")) {
    await response.body?.cancel().catch(() => undefined);
    problem = "the MCP server answered with neither JSON nor an event stream";
  } else {
    const text = await readText(response.body, MCP_MESSAGE_MAX_BYTES);
    if (typeof text !== "string") problem = text.message;
    else {
      try {
        JSON.parse(text);
        return answer(response, text);
      } catch {
        // The client's own error would quote the start of the body.
        problem = "the MCP server answered with a body that is not valid JSON";
      }
    }
  }
  const answers = ids.map((id) => errorAnswer(id, problem));
  return answer(response, JSON.stringify(answers.length === 1 ? answers[0] : answers), "application/json");
}

/** The ids sent over one connection, newest last, at most REMEMBERED_REQUESTS of them. */
function recentIds() {
  const ids: RequestId[] = [];
  return {
    add(more: RequestId[]) {
      ids.push(...more);
      if (ids.length > REMEMBERED_REQUESTS) ids.splice(0, ids.length - REMEMBERED_REQUESTS);
    },
    all: () => [...ids],
  };
}

/**
 * A fetch for one MCP client's HTTP transport (make one per client: an SSE stream's answers belong to the requests
 * sent by the same client). `allowPrivate`: whether the server may be at a loopback, private or link-local address.
 */
export function mcpFetch(
  { allowPrivate }: { allowPrivate: boolean },
  inner: Fetch = outboundFetch({ allowPrivate }),
): Fetch {
  const sent = recentIds();
  return async (input, init) => {
    const body = typeof init?.body === "string" ? withProgressTokenInBody(init.body) : init?.body;
    const ids = typeof body === "string" ? requestIds(body) : [];
    sent.add(ids);
    const method = (init?.method ?? "GET").toUpperCase();
    const response = await inner(input, init && body !== init.body ? { ...init, body } : init);
    // A POST's stream answers its own requests; a GET's (the SSE transport's) any request sent so far.
    return guarded(response, method, method === "GET" ? sent.all : () => ids);
  };
}
