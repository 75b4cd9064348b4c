// Traces with HINTLINE_TRACE_CONTENT=1 against a real `next start` with the demo model and an OTLP receiver the test
// runs (tests/api/subagents.test.ts checks the traces' shape, and that nothing anyone wrote is sent without the flag):
// the person's words reach the model call's span, the standard OTEL_SERVICE_NAME and OTEL_EXPORTER_OTLP_HEADERS are
// honoured, and a collector that never answers neither slows a reply nor holds the server up as it stops.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat } from "../support/chat-client.ts";
import { type OtlpReceiver, startOtlpReceiver } from "../support/otlp-receiver.ts";
import { pollUntil } from "./helpers.ts";

describe("tracing with content", () => {
  let server: AppServer | undefined;
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    server = await startAppServer({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer collector-key-1",
        OTEL_SERVICE_NAME: "hintline-staging",
        OTEL_BSP_SCHEDULE_DELAY: "50",
        HINTLINE_TRACE_CONTENT: "1",
        HINTLINE_DEMO_WORD_DELAY_MS: "2",
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it("sends the person's words with the model call when asked, under the service name and headers set", async () => {
    const word = "quokkaberry";
    await chat(server!.url, { conversationId: "tr-content", text: `What is a ${word}?` });
    const spans = await pollUntil(
      async () => receiver.spans,
      (all) => all.some((s) => s.name.startsWith("invoke_agent ") && s.attributes["hintline.reply.status"]),
      10_000,
      "the reply's spans were sent",
    );
    const reply = spans.find((s) => s.attributes["gen_ai.conversation.id"] === "tr-content")!;
    expect(reply.resource["service.name"]).toBe("hintline-staging");
    const call = spans.find((s) => s.traceId === reply.traceId && s.name.startsWith("chat "))!;
    expect(String(call.attributes["gen_ai.input.messages"])).toContain(`What is a ${word}?`);
    expect(receiver.headers[0]?.authorization).toBe("Bearer collector-key-1");
  });

  it("answers as fast with a collector that never answers, and stops without waiting for it", async () => {
    receiver.hang = true;
    const started = Date.now();
    const { text } = await chat(server!.url, { conversationId: "tr-hang", text: "hello" });
    expect(text.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The first batch's request hangs (up to the exporter's 10 s timeout): the next reply's spans wait behind it, and
    // the stop gives them 2 s, then exits.
    await chat(server!.url, { conversationId: "tr-hang", text: "hello again" });
    expect(Date.now() - started).toBeLessThan(10_000);
    const stopping = Date.now();
    expect(await server!.terminate()).toBe(0);
    expect(Date.now() - stopping).toBeGreaterThanOrEqual(1_900);
    expect(Date.now() - stopping).toBeLessThan(6_000);
    server = undefined;
  });
});
