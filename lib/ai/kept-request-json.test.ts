import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV4, LanguageModelV4Message } from "@ai-sdk/provider";
import { type LanguageModel, type ModelMessage, streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everyShapeHistory } from "../../tests/support/model-history.ts";
import { type OpenAIFake, startOpenAIFake } from "../../tests/support/openai-fake.ts";
import { warmConvertedPrefix, withConvertedPrefix } from "../agent/converted-prefix.ts";
import { keptRequestJson, spliceBody } from "./kept-request-json.ts";


type Bodies = { sent: string[]; beforeSplice: string[] };

/** A kept-JSON model on the fake, recording each body as the provider wrote it and as it went to the server. */
function keptModel(url: string, tamper?: (body: string) => string) {
  const bodies: Bodies = { sent: [], beforeSplice: [] };
  const model = keptRequestJson(
    (fetch) =>
      createOpenAI({
        apiKey: "k",
        baseURL: url,
        fetch: (input, init) => {
          bodies.beforeSplice.push(String(init?.body));
          return fetch(input, tamper ? { ...init, body: tamper(String(init?.body)) } : init);
        },
      }).chat("fake-model"),
    (input, init) => {
      bodies.sent.push(String(init?.body));
      return fetch(input, init);
    },
  );
  return { model, bodies };
}

function plainModel(url: string) {
  const sent: string[] = [];
  const model = createOpenAI({
    apiKey: "k",
    baseURL: url,
    fetch: (input, init) => {
      sent.push(String(init?.body));
      return fetch(input, init);
    },
  }).chat("fake-model");
  return { model, sent };
}

async function drain(model: LanguageModel, messages: ModelMessage[]): Promise<void> {
  const call = await withConvertedPrefix({ model, messages });
  const result = streamText({ model: call.model, instructions: "SYSTEM", messages: call.messages, maxRetries: 0 });
  for await (const part of result.stream) if (part.type === "error") throw part.error;
}

describe("keptRequestJson", () => {
  let fake: OpenAIFake;
  beforeAll(async () => {
    fake = await startOpenAIFake();
  });
  afterAll(() => fake.close());

  it("sends the server the same bytes as the provider alone, turn after turn, and after a retry", async () => {
    const kept = keptModel(fake.url);
    const plain = plainModel(fake.url);
    const base = everyShapeHistory();
    const turns: ModelMessage[][] = [
      base.slice(0, 1),
      [...base, { role: "user", content: "Next?" }],
      [...base, { role: "user", content: "Next?" }, { role: "assistant", content: "Yes." }, { role: "user", content: "And?" }],
      // A retry: the last reply replaced, so the kept JSON is cut back to the shared messages.
      [...base, { role: "user", content: "Next?" }, { role: "assistant", content: "No." }, { role: "user", content: "And?" }],
      base.slice(0, 4).concat({ role: "user", content: "Shorter." }),
    ];
    for (const messages of turns) {
      await drain(kept.model, messages);
      await drain(plain.model, messages);
    }
    expect(kept.bodies.sent).toHaveLength(turns.length);
    expect(kept.bodies.sent).toEqual(plain.sent);
    expect(kept.bodies.sent[2]).toContain('"image_url"');
    expect(kept.bodies.sent.join("")).not.toMatch(/"content":"hintline-kept-json-[0-9a-f]{24}/);
  });

  it("cuts the kept JSON back to what a prompt still shares, before extending it", async () => {
    const kept = keptModel(fake.url);
    const plain = plainModel(fake.url);
    const user = (text: string): LanguageModelV4Message => ({ role: "user", content: [{ type: "text", text }] });
    const [system, a, b, c, d] = [{ role: "system" as const, content: "SYSTEM" }, user("a"), user("b"), user("c"), user("d")];
    // The same message objects in a longer, a shorter and again the longer prompt (as after a retry that was undone).
    for (const prompt of [[system, a, b, c, d, user("1")], [system, a, b, user("2")], [system, a, b, c, d, user("3")], [a, b, c]]) {
      for (const model of [kept.model, plain.model as LanguageModelV4]) {
        const { stream } = await model.doStream({ prompt });
        for await (const _ of stream);
      }
    }
    expect(kept.bodies.sent).toEqual(plain.sent);
    expect(kept.bodies.beforeSplice[3]).not.toContain('"content":"a"');
  });

  it("keeps what the first of two overlapping calls sent, and the second one's bytes are still right", async () => {
    const kept = keptModel(fake.url);
    const plain = plainModel(fake.url);
    const user = (text: string): LanguageModelV4Message => ({ role: "user", content: [{ type: "text", text }] });
    const [a, b, c, d, y] = [user("a"), user("b"), user("c"), user("d"), user("y")];
    const send = async (model: LanguageModelV4, prompt: LanguageModelV4Message[]) => {
      for await (const _ of (await model.doStream({ prompt })).stream);
    };
    for (const model of [kept.model, plain.model as LanguageModelV4]) {
      await send(model, [a, b, c, d, user("0")]);
      // Both calls are prepared from the same kept state; the first to reach its fetch (the one with fewer new
      // messages to convert) changes it, and the other must then leave it alone.
      const more = ["2", "3", "4", "5", "6", "7"].map(user);
      await Promise.all([send(model, [a, y, user("1")]), send(model, [a, b, c, d, ...more])]);
      await send(model, [a, y, user("8")]);
    }
    const inOrder = (bodies: string[]) => [bodies[0], ...bodies.slice(1, 3).sort(), bodies[3]];
    expect(inOrder(kept.bodies.sent)).toEqual(inOrder(plain.sent));
  });

  it("hands the provider only the messages it has not sent before", async () => {
    const kept = keptModel(fake.url);
    const base = everyShapeHistory();
    await drain(kept.model, [...base, { role: "user", content: "Next?" }]);
    await drain(kept.model, [...base, { role: "user", content: "Next?" }, { role: "assistant", content: "Yes." }, { role: "user", content: "And?" }]);
    const [first, second] = kept.bodies.beforeSplice;
    expect(first).toContain("Plan the move.");
    // Up to the picture, whose conversion the SDK repeats every call (lib/agent/converted-prefix.ts).
    for (const text of ["Plan the move.", "Adding them.", "Drive", "No."]) {
      expect(second).not.toContain(text);
      expect(kept.bodies.sent[1]).toContain(text);
    }
    expect(second).toContain("A picture.");
    expect(second).toContain("And?");
  });

  it("is warmed ahead of a call without sending anything", async () => {
    const kept = keptModel(fake.url);
    const plain = plainModel(fake.url);
    const base = everyShapeHistory().slice(0, 6);
    fake.reset();
    await warmConvertedPrefix(kept.model, base);
    expect(fake.requests).toHaveLength(0);
    const messages = [...base, { role: "user" as const, content: "Go." }];
    await drain(kept.model, messages);
    await drain(plain.model, messages);
    expect(kept.bodies.beforeSplice.at(-1)).not.toContain("Plan the move.");
    expect(kept.bodies.sent).toEqual(plain.sent);
  });

  it("makes the call as it was when the body cannot be spliced", async () => {
    const kept = keptModel(fake.url, (body) => body.replaceAll('"content":"hintline-kept-json-', '"content":"hintline-other-'));
    const plain = plainModel(fake.url);
    const messages = [...everyShapeHistory(), { role: "user" as const, content: "Next?" }];
    await drain(kept.model, messages);
    await drain(plain.model, messages);
    expect(kept.bodies.sent).toEqual(plain.sent);
  });

  it("passes through what it does not splice", async () => {
    const inner = plainModel(fake.url).model as LanguageModelV4;
    const kept = keptRequestJson(() => inner, fetch);
    expect(kept.provider).toBe(inner.provider);
    expect(kept.modelId).toBe("fake-model");
    expect(await kept.supportedUrls).toEqual(await inner.supportedUrls);
  });
});

describe("spliceBody", () => {
  const p = '{"p"}';
  const m = ['{"m1"}', '{"m2"}'];
  const splice = (keptJson: string) => ({ keptJson, placeholder: p, markers: m });

  it("puts the kept JSON in place of the placeholder and cuts each new message out", () => {
    expect(spliceBody(`{"messages":[{"s"},${p},{"a"},${m[0]},{"b"},{"c"},${m[1]},{"last"}],"x":1}`, splice('{"k1"},{"k2"}'))).toEqual({
      body: '{"messages":[{"s"},{"k1"},{"k2"},{"a"},{"b"},{"c"},{"last"}],"x":1}',
      added: ['{"a"}', '{"b"},{"c"}'],
    });
  });

  it("leaves out what is empty, at either end of the list", () => {
    expect(spliceBody(`[${p},${m[0]},${m[1]}]`, splice(""))).toEqual({ body: "[]", added: ["", ""] });
    expect(spliceBody(`[${p},${m[0]},{"b"},${m[1]},{"z"}]`, splice(""))).toEqual({ body: '[{"b"},{"z"}]', added: ["", '{"b"}'] });
    expect(spliceBody(`[{"s"},${p},${m[0]},${m[1]}]`, splice('{"k"}'))).toEqual({ body: '[{"s"},{"k"}]', added: ["", ""] });
  });

  it("refuses a body not laid out as expected", () => {
    expect(spliceBody(`[${m[0]},${m[1]}]`, splice(""))).toBeUndefined();
    expect(spliceBody(`[${p},${m[1]},${m[0]}]`, splice(""))).toBeUndefined();
    expect(spliceBody(`["x"${p},${m[0]},${m[1]}]`, splice(""))).toBeUndefined();
    expect(spliceBody(`[${p}${m[0]},${m[1]}]`, splice(""))).toBeUndefined();
    expect(spliceBody(`[${p},${m[0]},${m[1]}}`, splice(""))).toBeUndefined();
  });
});
