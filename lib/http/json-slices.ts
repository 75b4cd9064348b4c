// A JSON answer too long to serialise in one go (a conversation of 20,000 messages is about 5 MB, which
// JSON.stringify turns out in 50–180 ms during which no other request is served), serialised in slices with a turn of
// the event loop between them and sent as it is made. The bytes are JSON.stringify's: the top-level object's (or
// array's) members, and the members of the objects and arrays directly in it, are serialised one by one, everything
// deeper by JSON.stringify itself. (One difference: a `toJSON` method of a member is called without its key.)

/** The longest a slice holds the event loop for (about: it checks after each member). */
const SLICE_MS = 8;
/** Characters sent per chunk at most (about: a member is never split). */
const CHUNK_CHARS = 64 * 1024;
/** Arrays with more members than this make an answer worth sending in slices. */
const LONG_ARRAY = 256;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type Plain = Record<string, unknown>;

/** An array or an object of Object's own (no toJSON, no class): what JSON.stringify walks member by member. */
function walkable(value: unknown): value is unknown[] | Plain {
  if (typeof value !== "object" || value === null || typeof (value as { toJSON?: unknown }).toJSON === "function")
    return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** JSON.stringify(value) as a sequence of pieces whose concatenation is the same text; `depth`: levels still split. */
export function* jsonPieces(value: unknown, depth = 2): Generator<string> {
  if (depth <= 0 || !walkable(value)) {
    // Nothing for undefined, a function or a symbol, as JSON.stringify gives nothing for them.
    const text = JSON.stringify(value);
    if (text !== undefined) yield text;
    return;
  }
  const split = (member: unknown) => depth > 1 && walkable(member);
  if (Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; i++) {
      const member = value[i];
      if (i > 0) yield ",";
      // A member JSON has no text for (undefined, a function, a symbol, a toJSON giving undefined) is null in an array.
      if (split(member)) yield* jsonPieces(member, depth - 1);
      else yield JSON.stringify(member) ?? "null";
    }
    yield "]";
    return;
  }
  yield "{";
  let first = true;
  for (const key of Object.keys(value)) {
    const member = value[key];
    const splitting = split(member);
    const text = splitting ? "" : JSON.stringify(member);
    // Left out of an object, as JSON.stringify leaves them out.
    if (text === undefined) continue;
    yield `${first ? "" : ","}${JSON.stringify(key)}:${text}`;
    first = false;
    if (splitting) yield* jsonPieces(member, depth - 1);
  }
  yield "}";
}

/** Whether the value holds an array long enough (directly, or in one of its members) to be sent in slices. */
export function isLongJson(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > LONG_ARRAY;
  if (!walkable(value)) return false;
  return Object.values(value).some((member) => Array.isArray(member) && member.length > LONG_ARRAY);
}

/**
 * JSON.stringify(value) as a byte stream: each chunk is what was serialised in about SLICE_MS (or CHUNK_CHARS), and
 * the next one is made only when the body is read on (after a turn of the event loop).
 */
export function jsonStream(value: unknown): ReadableStream<Uint8Array> {
  const pieces = jsonPieces(value);
  const encoder = new TextEncoder();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (started) await nextTurn();
      started = true;
      const sliceStart = performance.now();
      let chunk = "";
      for (;;) {
        const next = pieces.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
        if (chunk.length >= CHUNK_CHARS || performance.now() - sliceStart > SLICE_MS) break;
      }
      controller.enqueue(encoder.encode(chunk));
    },
  });
}

/** Response.json(value), sent in slices (jsonStream) when it holds a long array; the same bytes either way. */
export function jsonResponse(value: unknown, init: ResponseInit = {}): Response {
  if (!isLongJson(value)) return Response.json(value, init);
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  return new Response(jsonStream(value), { ...init, headers });
}
