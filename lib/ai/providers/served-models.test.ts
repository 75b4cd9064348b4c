// What a connection serves, asked of real HTTP servers the test starts: the OpenAI fake (two models, one reporting
// vLLM's max_model_len), an Ollama look-alike (/api/version, /api/show), and hostile ones — a million models, a body
// that never ends, one that never answers, HTML, a 401 — each a bounded failure in words or a bounded list.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenAIFake, startOpenAIFake } from "../../../tests/support/openai-fake.ts";
import { listServedModels, MAX_LISTED_MODELS, ollamaWindow, parseModelList } from "./served-models.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
async function serve(handler: Handler): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("parsing a model list", () => {
  it("takes each entry's id and reported window, skipping junk and duplicates, and keeps at most the first 500", () => {
    const body = {
      data: [
        { id: "a", max_model_len: 4_096 },
        { id: "b", context_length: 131_072 },
        { id: "a" },
        { id: 7 },
        { id: "bad\nname" },
        { id: "x".repeat(300) },
        { id: "c", max_model_len: -5 },
        "junk",
      ],
    };
    expect(parseModelList(body, "openai-compatible")).toEqual({
      models: [
        { name: "a", contextWindow: 4_096, windowSource: "server" },
        { name: "b", contextWindow: 131_072, windowSource: "server" },
        { name: "c" },
      ],
      truncated: false,
    });
    const many = { data: Array.from({ length: 2_000 }, (_, i) => ({ id: `m${i}` })) };
    const cut = parseModelList(many, "openai")!;
    expect(cut.models).toHaveLength(MAX_LISTED_MODELS);
    expect(cut.truncated).toBe(true);
    expect(
      parseModelList({ models: [{ name: "models/gemini-2.5-flash", inputTokenLimit: 1_048_576 }] }, "google"),
    ).toEqual({
      models: [{ name: "gemini-2.5-flash", contextWindow: 1_048_576, windowSource: "server" }],
      truncated: false,
    });
    expect(parseModelList({ error: "no" }, "openai")).toBeUndefined();
  });

  it("reads Ollama's window: num_ctx when the model sets it, else its default of 4,096 within the model's own length", () => {
    expect(
      ollamaWindow({ parameters: 'stop "<|eot|>"\nnum_ctx 16384', model_info: { "llama.context_length": 131_072 } }),
    ).toEqual({
      contextWindow: 16_384,
      windowSource: "server",
    });
    expect(ollamaWindow({ model_info: { "llama.context_length": 131_072 } })).toEqual({
      contextWindow: 4_096,
      windowSource: "ollama-default",
    });
    expect(ollamaWindow({ model_info: { "phi.context_length": 2_048 } }).contextWindow).toBe(2_048);
    expect(ollamaWindow(null).contextWindow).toBe(4_096);
  });
});

describe("asking a server", () => {
  let fake: OpenAIFake;
  const servers: Server[] = [];
  const start = async (handler: Handler) => {
    const { url, server } = await serve(handler);
    servers.push(server);
    return url;
  };
  beforeAll(async () => {
    fake = await startOpenAIFake({ models: [{ id: "fake-small", max_model_len: 4_096 }, { id: "fake-large" }] });
  });
  afterAll(async () => {
    await fake.close();
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it("lists the OpenAI fake's two models with the key sent as a bearer token", async () => {
    const result = await listServedModels(
      { kind: "openai-compatible", baseUrl: fake.url, apiKey: "k-123" },
      { timeoutMs: 5_000 },
    );
    expect(result).toEqual({
      ok: true,
      ollama: false,
      truncated: false,
      models: [{ name: "fake-small", contextWindow: 4_096, windowSource: "server" }, { name: "fake-large" }],
    });
    expect(fake.modelListRequests.at(-1)!.headers.authorization).toBe("Bearer k-123");
  });

  it("asks an Ollama server (its /api/version answers) for each model's window through /api/show", async () => {
    const url = await start((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.url === "/v1/models")
        return res.end(JSON.stringify({ data: [{ id: "llama3.2:latest" }, { id: "qwen3:8b" }] }));
      if (req.url === "/api/version") return res.end(JSON.stringify({ version: "0.12.3" }));
      if (req.url === "/api/show") {
        let body = "";
        req.on("data", (d) => (body += d));
        req.on("end", () => {
          const { model } = JSON.parse(body) as { model: string };
          const show = model.startsWith("qwen3")
            ? { parameters: "num_ctx 8192" }
            : { model_info: { "llama.context_length": 131_072 } };
          res.end(JSON.stringify(show));
        });
        return;
      }
      res.statusCode = 404;
      res.end("{}");
    });
    const result = await listServedModels({ kind: "openai-compatible", baseUrl: `${url}/v1` }, { timeoutMs: 5_000 });
    expect(result).toEqual({
      ok: true,
      ollama: true,
      truncated: false,
      models: [
        { name: "llama3.2:latest", contextWindow: 4_096, windowSource: "ollama-default" },
        { name: "qwen3:8b", contextWindow: 8_192, windowSource: "server" },
      ],
    });
  });

  it("fails in words, echoing nothing the server wrote, and within its deadline whatever the server does", async () => {
    const secret = "SERVER-WORDS-NOT-ECHOED";
    const html = await start((_req, res) => res.end(`<html>${secret}</html>`));
    const refused = await start((_req, res) => {
      res.statusCode = 401;
      res.end(JSON.stringify({ error: secret }));
    });
    const silent = await start(() => {});
    const endless = await start((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.write('{"data":[');
      const chunk = `${'{"id":"m"},'.repeat(10_000)}`;
      const pump = () => {
        while (res.write(chunk)) {}
        res.once("drain", pump);
      };
      pump();
      res.on("error", () => {});
    });
    const ask = (baseUrl: string, timeoutMs = 5_000) =>
      listServedModels({ kind: "openai-compatible", baseUrl }, { timeoutMs });
    const outcomes = await Promise.all([ask(html), ask(refused), ask(endless), ask("http://127.0.0.1:1/v1")]);
    expect(outcomes.map((o) => (o.ok ? "ok" : o.error))).toEqual([
      `${html}/models answered, but not with a model list`,
      `${refused}/models answered HTTP 401: the key was refused`,
      `${endless}/models answered with more than 4 MiB; no model list was read`,
      "nothing accepts connections at http://127.0.0.1:1/v1/models (connection refused): is the server running?",
    ]);
    const startedAt = Date.now();
    expect(await ask(silent, 300)).toEqual({ ok: false, error: `${silent}/models did not answer within 0.3 s` });
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    expect(JSON.stringify(outcomes)).not.toContain(secret);
  });
});
