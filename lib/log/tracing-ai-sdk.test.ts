// The AI SDK's spans as Hintline sends them, against an in-memory exporter: the GenAI figures always; what people wrote
// (messages, tool arguments and results, a tool error's words) only with content on; each tool span's outcome.
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { jsonSchema, streamText, tool } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HintlineTelemetry } from "./tracing-ai-sdk.ts";

const WORD = "quokkaberry";

function toolCallStep(): { stream: ReadableStream<LanguageModelV4StreamPart> } {
  return {
    stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
      { type: "tool-call", toolCallId: "c1", toolName: "lookup", input: JSON.stringify({ word: WORD }) },
      { type: "tool-call", toolCallId: "c2", toolName: "fails", input: JSON.stringify({ word: WORD }) },
      {
        type: "finish",
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: {
          inputTokens: { total: 120, noCache: 20, cacheRead: 100, cacheWrite: 0 },
          outputTokens: { total: 7, text: 7, reasoning: 0 },
        },
      },
    ]),
  };
}

const input = jsonSchema<{ word: string }>({
  type: "object",
  properties: { word: { type: "string" } },
  required: ["word"],
});
const tools = {
  lookup: tool({ inputSchema: input, execute: async ({ word }) => `${word} is a fruit` }),
  fails: tool({
    inputSchema: input,
    execute: async ({ word }): Promise<string> => {
      throw Object.assign(new Error(`NotFoundError: no ${word} here. Arguments sent: {"word":"${word}"}`), {
        name: "NotFoundError",
      });
    },
  }),
};

async function spansOf(content: boolean) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const integration = new HintlineTelemetry({ tracer: provider.getTracer("test"), content });
  const result = streamText({
    model: new MockLanguageModelV4({ modelId: "mock-model", doStream: [toolCallStep()] }),
    instructions: "Be brief.",
    messages: [{ role: "user", content: `What is a ${WORD}?` }],
    tools,
    telemetry: { integrations: [integration] },
  });
  await result.consumeStream();
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}

describe("HintlineTelemetry", () => {
  // As tracing-sdk.ts sets it: a tool runs with its span active.
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => {
    context.disable();
  });

  it("sends the GenAI figures and each tool's name, duration and outcome, and nothing anyone wrote", async () => {
    const spans = await spansOf(false);
    const chat = spans.find((s) => s.name === "chat mock-model")!;
    expect(chat.attributes).toMatchObject({
      "gen_ai.request.model": "mock-model",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.cache_read.input_tokens": 100,
      "gen_ai.usage.output_tokens": 7,
    });
    const lookup = spans.find((s) => s.name === "execute_tool lookup")!;
    expect(lookup.attributes).toMatchObject({ "gen_ai.tool.name": "lookup", "hintline.tool.outcome": "ok" });
    expect(lookup.attributes["gen_ai.execute_tool.duration"]).toEqual(expect.any(Number));
    const failed = spans.find((s) => s.name === "execute_tool fails")!;
    expect(failed.attributes).toMatchObject({ "hintline.tool.outcome": "error", "error.type": "NotFoundError" });
    expect(failed.status.code).toBe(2); // ERROR
    expect(failed.events.map((e) => e.attributes?.["exception.message"])).toEqual(["NotFoundError"]);
    expect(JSON.stringify(spans.map((s) => [s.attributes, s.events, s.status]))).not.toContain(WORD);
  });

  it("sends messages, tool arguments, results and errors with content on", async () => {
    const spans = await spansOf(true);
    const text = (name: string) => JSON.stringify(spans.find((s) => s.name === name)?.attributes);
    expect(text("chat mock-model")).toContain(`What is a ${WORD}?`);
    expect(text("execute_tool lookup")).toContain(`${WORD} is a fruit`);
    const failed = spans.find((s) => s.name === "execute_tool fails")!;
    expect(String(failed.events[0]?.attributes?.["exception.message"])).toContain(`no ${WORD} here`);
  });
});
