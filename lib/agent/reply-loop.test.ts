import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { jsonSchema, tool } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { ChatChunk } from "../chat-message.ts";
import { wordsFor } from "../operator-words.ts";
import { runReply } from "./reply-loop.ts";

const usage = (input: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 3, text: 3, reasoning: 0 },
});

function textStep(text: string, input = 10): { stream: ReadableStream<LanguageModelV4StreamPart> } {
  return {
    stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: text },
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: usage(input) },
    ]),
  };
}

function toolStep(): { stream: ReadableStream<LanguageModelV4StreamPart> } {
  return {
    stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
      { type: "tool-call", toolCallId: "c1", toolName: "echo", input: JSON.stringify({ value: "x" }) },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: usage(5) },
    ]),
  };
}

const echo = tool({
  inputSchema: jsonSchema<{ value: string }>({
    type: "object",
    properties: { value: { type: "string" } },
    required: ["value"],
  }),
  execute: async ({ value }) => `echo: ${value}`,
});

describe("runReply", () => {
  it("runs one step per model call, executes tools, and extends the input append-only", async () => {
    const model = new MockLanguageModelV4({ doStream: [toolStep(), textStep("done")] });
    const chunks: ChatChunk[] = [];
    const outcome = await runReply({
      model,
      instructions: "SYSTEM",
      history: [{ role: "user", content: "go" }],
      replyId: "r1",
      tools: { echo },
      emit: (c) => chunks.push(c),
    });
    expect(outcome.status).toBe("complete");
    expect(outcome.steps).toBe(2);
    const [first, second] = model.doStreamCalls;
    expect(second!.prompt.slice(0, first!.prompt.length)).toEqual(first!.prompt);
    expect(second!.prompt[0]).toEqual(first!.prompt[0]);
    expect(second!.prompt.at(-1)).toMatchObject({ role: "tool" });
    expect(outcome.reply.parts.map((p) => p.type)).toEqual(["step-start", "tool-echo", "step-start", "text"]);
    expect(outcome.reply.parts[1]).toMatchObject({ state: "output-available", output: "echo: x" });
  });

  it("makes at most maxSteps calls: the last offers the same tools with tool choice none, and is told it is the last", async () => {
    const model = new MockLanguageModelV4({ doStream: [toolStep(), toolStep(), textStep("here is what I have")] });
    const lasts: boolean[] = [];
    const outcome = await runReply({
      model,
      instructions: "SYSTEM",
      history: [{ role: "user", content: "go" }],
      replyId: "r-cap",
      tools: { echo },
      maxSteps: 3,
      emit: () => {},
      beforeStep: ({ last }) => {
        lasts.push(last === true);
        return undefined;
      },
    });
    expect(lasts).toEqual([false, false, true]);
    expect(model.doStreamCalls.map((c) => c.toolChoice?.type)).toEqual(["auto", "auto", "none"]);
    // The tool list stays the same (it is part of the cached prefix).
    expect(model.doStreamCalls[2]!.tools).toEqual(model.doStreamCalls[0]!.tools);
    expect(outcome).toMatchObject({ status: "complete", steps: 3, stepLimit: 3 });
    // A reply that answers before the limit does not reach it.
    const short = await runReply({
      model: new MockLanguageModelV4({ doStream: [textStep("hi")] }),
      instructions: "S",
      history: [{ role: "user", content: "go" }],
      replyId: "r-short",
      tools: { echo },
      maxSteps: 3,
      emit: () => {},
    });
    expect(short.stepLimit).toBeUndefined();
  });

  it("ends at the step limit, complete, when a provider ignores tool choice none: the calls it made are not run", async () => {
    // Some OpenAI-compatible servers ignore tool_choice; the SDK refuses the answer. The reply still ends in words.
    const lastStep = {
      stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "one more look" },
        { type: "text-end", id: "t" },
        // Streamed as it is written, as Chat Completions servers do: the person saw it start.
        { type: "tool-input-start", id: "c9", toolName: "echo" },
        { type: "tool-input-delta", id: "c9", delta: JSON.stringify({ value: "again" }) },
        { type: "tool-input-end", id: "c9" },
        { type: "tool-call", toolCallId: "c9", toolName: "echo", input: JSON.stringify({ value: "again" }) },
        { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: usage(5) },
      ]),
    };
    let ran = 0;
    const counted = tool({ ...echo, execute: async ({ value }: { value: string }) => `echo: ${value} ${++ran}` });
    const chunks: ChatChunk[] = [];
    const outcome = await runReply({
      model: new MockLanguageModelV4({ doStream: [toolStep(), lastStep] }),
      instructions: "SYSTEM",
      history: [{ role: "user", content: "go" }],
      replyId: "r-ignores",
      tools: { echo: counted },
      maxSteps: 2,
      emit: (c) => chunks.push(c),
    });
    expect(outcome).toMatchObject({ status: "complete", steps: 2, stepLimit: 2 });
    expect(outcome.error).toBeUndefined();
    expect(chunks.some((c) => c.type === "error")).toBe(false);
    expect(ran).toBe(1);
    // The refused call is withheld: not run, not stored (a call without a result would break the history).
    expect(outcome.reply.parts.filter((p) => p.type === "tool-echo")).toHaveLength(1);
    expect(outcome.reply.parts.some((p) => p.type === "text" && p.text === "one more look")).toBe(true);
  });

  it("adds what beforeStep returns before the step, and the model receives it as a user message", async () => {
    const model = new MockLanguageModelV4({ doStream: [textStep("ok")] });
    const seen: number[] = [];
    const chunks: ChatChunk[] = [];
    const outcome = await runReply({
      model,
      instructions: "SYSTEM",
      history: [{ role: "user", content: "hi" }],
      replyId: "r1",
      emit: (c) => chunks.push(c),
      beforeStep: ({ stepIndex }) => {
        seen.push(stepIndex);
        return {
          chunks: [
            {
              type: "data-hint",
              id: "h1",
              data: {
                source: { label: "System", sublabel: "Runtime State" },
                fields: {},
                text: "<system-reminder>X</system-reminder>",
                createdAt: "t",
              },
            },
          ],
        };
      },
    });
    expect(seen).toEqual([0]);
    expect(chunks.map((c) => c.type)).toContain("data-hint");
    expect(outcome.reply.parts[0]).toMatchObject({ type: "data-hint" });
    expect(model.doStreamCalls[0]!.prompt.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: "<system-reminder>X</system-reminder>" }],
    });
  });

  it("persists but does not stream what beforeStep marks as silent", async () => {
    const model = new MockLanguageModelV4({ doStream: [textStep("ok")] });
    const chunks: ChatChunk[] = [];
    const hint: ChatChunk = {
      type: "data-hint",
      id: "h1",
      data: {
        source: { label: "System", sublabel: "Runtime State" },
        fields: {},
        text: "<system-reminder>X</system-reminder>",
        createdAt: "t",
      },
    };
    const outcome = await runReply({
      model,
      instructions: "S",
      history: [{ role: "user", content: "hi" }],
      replyId: "r1",
      emit: (c) => chunks.push(c),
      beforeStep: () => ({ quiet: [hint] }),
    });
    expect(chunks.some((c) => c.type === "data-hint")).toBe(false);
    expect(outcome.reply.parts[0]).toMatchObject({ type: "data-hint", id: "h1" });
    expect(model.doStreamCalls[0]!.prompt.at(-1)).toMatchObject({ role: "user" });
  });

  it("reports a provider failure as an error outcome with a readable message, keeping what streamed", async () => {
    const model = new MockLanguageModelV4({
      doStream: {
        stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "partial" },
          { type: "error", error: Object.assign(new Error("boom"), { statusCode: 500 }) },
        ]),
      },
    });
    const chunks: ChatChunk[] = [];
    const outcome = await runReply({
      model,
      instructions: "S",
      history: [{ role: "user", content: "hi" }],
      replyId: "r1",
      emit: (c) => chunks.push(c),
    });
    expect(outcome.status).toBe("error");
    expect(outcome.error).toBe("The model provider failed (HTTP 500). Try again.");
    expect(outcome.reply.parts).toContainEqual({ type: "text", text: "partial", state: "done" });
    expect(chunks.at(-1)).toEqual({ type: "error", errorText: outcome.error });
  });

  it("words a failure for its reader: the variable to check only for the operator, and no note marks either way", async () => {
    const refusing = () =>
      new MockLanguageModelV4({
        doStream: {
          stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
            { type: "error", error: Object.assign(new Error("no"), { statusCode: 401 }) },
          ]),
        },
      });
    const run = (errorWords?: (message: string) => string) => {
      const chunks: ChatChunk[] = [];
      const reply = runReply({
        model: refusing(),
        instructions: "S",
        history: [{ role: "user", content: "hi" }],
        replyId: "r1",
        emit: (c) => chunks.push(c),
        ...(errorWords ? { errorWords } : {}),
      });
      return reply.then((outcome) => ({ outcome, chunks }));
    };
    const operator = await run();
    expect(operator.outcome.error).toBe(
      "The model provider refused the request (HTTP 401): check the API key (OPENAI_API_KEY).",
    );
    const person = await run((message) => wordsFor(message, false));
    expect(person.outcome.error).toBe(
      "The model provider refused the request (HTTP 401): it does not accept this server's key. Ask whoever runs this Hintline server to check it.",
    );
    expect(person.chunks.at(-1)).toEqual({ type: "error", errorText: person.outcome.error });
  });

  it("gives up on a provider that sends nothing within idleTimeoutMs", async () => {
    const model = new MockLanguageModelV4({
      doStream: { stream: new ReadableStream<LanguageModelV4StreamPart>({ start() {} }) },
    });
    const outcome = await runReply({
      model,
      instructions: "S",
      history: [{ role: "user", content: "hi" }],
      replyId: "r1",
      emit: () => {},
      idleTimeoutMs: 50,
    });
    expect(outcome.status).toBe("error");
    expect(outcome.error).toMatch(/did not answer in time/);
  });

  it("does not count a tool's own running time as the provider's silence", async () => {
    const slow = tool({
      inputSchema: jsonSchema<{ value: string }>({
        type: "object",
        properties: { value: { type: "string" } },
        required: ["value"],
      }),
      execute: async ({ value }) => new Promise<string>((resolve) => setTimeout(() => resolve(`slow: ${value}`), 300)),
    });
    const model = new MockLanguageModelV4({ doStream: [toolStep(), textStep("done")] });
    const outcome = await runReply({
      model,
      instructions: "S",
      history: [{ role: "user", content: "go" }],
      replyId: "r1",
      tools: { echo: slow },
      emit: () => {},
      idleTimeoutMs: 100,
    });
    expect(outcome.status).toBe("complete");
    expect(outcome.reply.parts[1]).toMatchObject({ state: "output-available", output: "slow: x" });
  });

  it("stops when aborted and marks the reply incomplete", async () => {
    const controller = new AbortController();
    controller.abort();
    const model = new MockLanguageModelV4({ doStream: [textStep("never")] });
    const outcome = await runReply({
      model,
      instructions: "S",
      history: [],
      replyId: "r1",
      emit: () => {},
      abortSignal: controller.signal,
    });
    expect(outcome.status).toBe("incomplete");
    expect(outcome.error).toBe("Stopped.");
    expect(model.doStreamCalls).toHaveLength(0);
  });

  it("stores a stop's reason when the stop gives one as text (a server shutting down)", async () => {
    const controller = new AbortController();
    controller.abort("The server restarted.");
    const model = new MockLanguageModelV4({ doStream: [textStep("never")] });
    const outcome = await runReply({
      model,
      instructions: "S",
      history: [],
      replyId: "r1",
      emit: () => {},
      abortSignal: controller.signal,
    });
    expect(outcome).toMatchObject({ status: "incomplete", error: "The server restarted." });
  });
});

describe("runReply, resumed or crashing", () => {
  it("saves a call of a tool that is not read-only before it runs and once it returns (a resume knows it may have run)", async () => {
    const model = new MockLanguageModelV4({ doStream: [toolStep(), textStep("done")] });
    const saved: string[] = [];
    const seenByTool: string[] = [];
    const write = tool({
      ...echo,
      execute: async ({ value }: { value: string }) => {
        seenByTool.push(saved.at(-1) ?? "nothing saved");
        return `wrote ${value}`;
      },
    });
    const stateOf = (reply: { parts: unknown[] }) =>
      (reply.parts as Array<{ toolCallId?: string; state?: string }>).find((p) => p.toolCallId === "c1")?.state ??
      "none";
    const outcome = await runReply({
      model,
      instructions: "SYSTEM",
      history: [{ role: "user", content: "go" }],
      replyId: "r1",
      tools: { echo: write },
      emit: () => {},
      checkpoint: {
        everyMs: 60_000,
        save: async (reply) => {
          saved.push(stateOf(reply));
        },
        readOnly: () => false,
      },
    });
    expect(outcome.status).toBe("complete");
    expect(seenByTool).toEqual(["input-available"]);
    expect(saved.slice(0, 2)).toEqual(["input-available", "output-available"]);
  });

  it("saves nothing extra for a read-only tool", async () => {
    const model = new MockLanguageModelV4({ doStream: [toolStep(), textStep("done")] });
    const saved: unknown[] = [];
    await runReply({
      model,
      instructions: "SYSTEM",
      history: [{ role: "user", content: "go" }],
      replyId: "r1",
      tools: { echo },
      emit: () => {},
      checkpoint: { everyMs: 60_000, save: async (reply) => void saved.push(reply), readOnly: () => true },
    });
    expect(saved).toEqual([]);
  });

  it("waits for a seeded call's approval before its first model call, then runs it and goes on", async () => {
    const model = new MockLanguageModelV4({ doStream: [textStep("after the write")] });
    const order: string[] = [];
    const write = tool({
      ...echo,
      execute: async ({ value }: { value: string }) => {
        order.push(`ran ${value}`);
        return `wrote ${value}`;
      },
    });
    const outcome = await runReply({
      model,
      instructions: "SYSTEM",
      history: [{ role: "user", content: "go" }],
      replyId: "r1",
      tools: { echo: write },
      seed: [
        { type: "step-start" },
        {
          type: "tool-echo",
          toolCallId: "c1",
          state: "approval-requested",
          input: { value: "x" },
          approval: { id: "a1" },
        } as never,
      ],
      awaitApprovals: async (pending) => {
        order.push(`asked ${pending.map((p) => p.toolCallId).join()}`);
        return [{ toolCallId: "c1", approved: true }];
      },
      // The call runs inside what the server wraps it in (its tracing span).
      runApproved: async (call, run) => {
        order.push(`wrap ${call.toolName} ${call.toolCallId}`);
        const output = await run();
        order.push(`unwrap ${String(output)}`);
        return output;
      },
      emit: () => {},
    });
    expect(order).toEqual(["asked c1", "wrap echo c1", "ran x", "unwrap wrote x"]);
    expect(model.doStreamCalls).toHaveLength(1);
    expect(model.doStreamCalls[0]!.prompt.at(-1)).toMatchObject({ role: "tool" });
    expect(outcome.status).toBe("complete");
  });
});
