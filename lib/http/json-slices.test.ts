import { describe, expect, it } from "vitest";
import { isLongJson, jsonPieces, jsonResponse, jsonStream } from "./json-slices.ts";

const message = (i: number) => ({
  id: `m${i}`,
  role: i % 2 ? "assistant" : "user",
  parts: [{ type: "text", text: `message ${i} — ünïcödé "quoted" \n` }],
  metadata: { n: i },
});

const VALUES: Array<[string, unknown]> = [
  [
    "a conversation view",
    {
      id: "c",
      title: "t",
      settings: { a: 1, b: [1, 2] },
      messages: Array.from({ length: 1_000 }, (_, i) => message(i)),
      tasks: [],
      contextUsage: null,
      branches: [],
    },
  ],
  [
    "members JSON leaves out",
    {
      a: undefined,
      b: () => 1,
      c: Symbol("s"),
      d: 1,
      e: { toJSON: () => undefined },
      f: [undefined, () => 1, Symbol("s"), { toJSON: () => undefined }, 2],
    },
  ],
  ["the first member left out", { a: undefined, b: 2 }],
  ["nothing but members left out", { a: undefined }],
  [
    "dates, classes and toJSON",
    { at: new Date(0), list: [new Date(1), new Map([[1, 2]]), { toJSON: () => "x" }], deep: { when: new Date(2) } },
  ],
  ["an array at the top", [1, "two", null, { three: [3] }, [4, [5]]]],
  ["an empty object and array", { o: {}, a: [], nested: { o: {}, a: [] } }],
  ["keys needing escapes and integer keys", { 'q"uote': 1, "2": "two", "1": "one", "\u2028": "sep" }],
  ["an object without a prototype", Object.assign(Object.create(null), { a: 1, b: [1, 2] })],
  ["primitives", "text"],
  ["a number", 42],
  ["null", null],
  ["numbers JSON cannot hold", { nan: Number.NaN, inf: [Number.POSITIVE_INFINITY], neg: -0 }],
];

async function readAll(stream: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), chunks };
    text += decoder.decode(value, { stream: true });
    chunks++;
  }
}

describe("jsonPieces", () => {
  it.each(VALUES)("gives JSON.stringify's text for %s", (_name, value) => {
    expect([...jsonPieces(value)].join("")).toBe(JSON.stringify(value));
  });

  it("gives nothing where JSON.stringify gives undefined", () => {
    expect([...jsonPieces(undefined)]).toEqual([]);
    expect([...jsonPieces(() => 1)]).toEqual([]);
  });

  it("serialises a long array's members one by one", () => {
    const messages = Array.from({ length: 100 }, (_, i) => message(i));
    const pieces = [...jsonPieces({ id: "c", messages })];
    expect(pieces.length).toBeGreaterThan(100);
    expect(pieces).toContain(JSON.stringify(messages[42]));
  });
});

describe("jsonStream", () => {
  it.each(VALUES)("streams JSON.stringify's bytes for %s", async (_name, value) => {
    expect((await readAll(jsonStream(value))).text).toBe(JSON.stringify(value) ?? "");
  });

  it("sends a long answer in several chunks and lets other work run between them", async () => {
    const value = { id: "c", messages: Array.from({ length: 20_000 }, (_, i) => message(i)) };
    let turns = 0;
    let reading = true;
    const tick = () => {
      if (!reading) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const { text, chunks } = await readAll(jsonStream(value));
    reading = false;
    expect(text).toBe(JSON.stringify(value));
    expect(chunks).toBeGreaterThan(10);
    // A turn of the event loop between every two chunks (before: one string, made whole before anything else ran).
    expect(turns).toBeGreaterThanOrEqual(chunks - 1);
  });
});

describe("jsonResponse", () => {
  it("answers a short value as Response.json does", async () => {
    const value = { a: 1, list: [1, 2, 3] };
    const response = jsonResponse(value, { status: 201 });
    const reference = Response.json(value, { status: 201 });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe(reference.headers.get("content-type"));
    expect(await response.text()).toBe(await reference.text());
  });

  it("streams a value holding a long array, with the same type and bytes", async () => {
    const value = { id: "c", messages: Array.from({ length: 2_000 }, (_, i) => message(i)) };
    expect(isLongJson(value)).toBe(true);
    const response = jsonResponse(value);
    expect(response.body).toBeInstanceOf(ReadableStream);
    expect(response.headers.get("content-type")).toBe(Response.json(value).headers.get("content-type"));
    expect(await response.text()).toBe(JSON.stringify(value));
  });

  it("tells long values from short ones", () => {
    expect(isLongJson({ messages: new Array(257).fill(1) })).toBe(true);
    expect(isLongJson(new Array(257).fill(1))).toBe(true);
    expect(isLongJson({ messages: new Array(256).fill(1) })).toBe(false);
    expect(isLongJson({ nested: { messages: new Array(1_000).fill(1) } })).toBe(false);
    expect(isLongJson("x".repeat(10_000))).toBe(false);
  });
});
