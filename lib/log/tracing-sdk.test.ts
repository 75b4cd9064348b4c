// The tracing runtime against an OTLP/HTTP receiver (the exporter's real requests): a reply's span and its hint events,
// a tool call the loop runs itself (an approved one), and a child's reply started later from that call's stored
// traceparent, nested under it; a forged traceparent starts a trace of its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { samplerOf } from "./tracing-sdk.ts";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../../tests/support/otlp-receiver.ts";
import { currentTraceparent, flushTracing, startTracing, traceHints, traceReply, traceToolCall } from "./tracing.ts";

const WORD = "quokkaberry";
let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  expect(await startTracing()).toBe(true);
  expect(await startTracing()).toBe(false); // once per process
});
afterAll(async () => {
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  await receiver?.close();
});

const hint = (label: string, sublabel: string) => ({
  type: "data-hint" as const,
  id: `h-${sublabel}`,
  data: {
    source: { label, sublabel },
    fields: { note: WORD },
    text: `<system-reminder>${WORD}</system-reminder>`,
    createdAt: "",
  },
});

describe("the tracing runtime", () => {
  it("traces a reply with its hints and approved tool calls, and a child's reply started later under its call", async () => {
    let stored: string | undefined;
    await traceReply({ conversationId: "c-1", replyId: "r-1" }, async (trace) => {
      traceHints([hint("System", "Runtime State"), { type: "text-delta", id: "t", delta: WORD } as never]);
      await traceToolCall({ toolName: "mcp_write", toolCallId: "call-1", input: { text: WORD } }, async () => {
        stored = currentTraceparent();
        return `wrote ${WORD}`;
      });
      await expect(
        traceToolCall({ toolName: "mcp_fail", toolCallId: "call-2", input: { text: WORD } }, async () => {
          throw Object.assign(new Error(`no ${WORD}`), { name: "McpToolError" });
        }),
      ).rejects.toThrow(WORD);
      trace.outcome("complete", 2);
    });
    // The child's reply runs after the parent's ended, from the stored traceparent alone.
    await traceReply(
      { conversationId: "c-2", replyId: "r-2", agent: "general-purpose", parent: stored },
      async () => {},
    );
    await traceReply(
      { conversationId: "c-3", replyId: "r-3", parent: `00-${"f".repeat(32)}-${"0".repeat(16)}-01` },
      async () => {},
    );
    await flushTracing();

    const byName = (name: string) => receiver.spans.find((s) => s.name === name) as ReceivedSpan;
    const reply = receiver.spans.find((s) => s.attributes["gen_ai.conversation.id"] === "c-1")!;
    expect(reply).toMatchObject({ name: "invoke_agent hintline", status: 0 });
    expect(reply.parentSpanId).toBeUndefined();
    expect(reply.resource["service.name"]).toBe("hintline");
    expect(reply.attributes).toMatchObject({
      "gen_ai.agent.name": "hintline",
      "hintline.reply.id": "r-1",
      "hintline.reply.status": "complete",
      "hintline.reply.steps": 2,
    });
    expect(reply.events).toEqual([
      { name: "hint", attributes: { "hintline.hint.source": "System", "hintline.hint.sublabel": "Runtime State" } },
    ]);
    const write = byName("execute_tool mcp_write");
    expect(write).toMatchObject({ traceId: reply.traceId, parentSpanId: reply.spanId, status: 0 });
    expect(write.attributes).toMatchObject({
      "gen_ai.tool.name": "mcp_write",
      "gen_ai.tool.call.id": "call-1",
      "hintline.tool.outcome": "ok",
      "gen_ai.execute_tool.duration": expect.any(Number),
    });
    const failed = byName("execute_tool mcp_fail");
    expect(failed).toMatchObject({ parentSpanId: reply.spanId, status: 2 });
    expect(failed.attributes).toMatchObject({ "hintline.tool.outcome": "error", "error.type": "McpToolError" });
    const child = receiver.spans.find((s) => s.attributes["gen_ai.conversation.id"] === "c-2")!;
    expect(child).toMatchObject({
      name: "invoke_agent general-purpose",
      traceId: reply.traceId,
      parentSpanId: write.spanId,
    });
    const forged = receiver.spans.find((s) => s.attributes["gen_ai.conversation.id"] === "c-3")!;
    expect(forged.parentSpanId).toBeUndefined();
    expect(forged.traceId).not.toBe(reply.traceId);
    expect(JSON.stringify(receiver.spans)).not.toContain(WORD);
  });

  it("reads the standard sampler variables; anything else is the default, every reply", () => {
    const sampler = (OTEL_TRACES_SAMPLER?: string, OTEL_TRACES_SAMPLER_ARG?: string) =>
      samplerOf({ OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG }).toString();
    const always = "ParentBased{root=AlwaysOnSampler";
    expect(sampler()).toMatch(always);
    expect(sampler("nonsense")).toMatch(always);
    expect(sampler("parentbased_traceidratio", "0.1")).toMatch("ParentBased{root=TraceIdRatioBased{0.1}");
    expect(sampler("traceidratio", "0.25")).toBe("TraceIdRatioBased{0.25}");
    expect(sampler("traceidratio", "lots")).toBe("AlwaysOnSampler");
    expect(sampler("always_off")).toBe("AlwaysOffSampler");
  });
});
