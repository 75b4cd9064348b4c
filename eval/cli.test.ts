// `npm run eval` refuses what it cannot measure: a --base-url where no Chat Completions API answers fails at once with
// a non-zero exit and a sentence naming the URL and the reason (it used to play every scenario into errors, print 0 %
// and exit 0), and an unknown flag is refused with the usage line, and so is a flag it would have ignored.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenAIFake, startOpenAIFake } from "../tests/support/openai-fake.ts";
import { checkedOptions, parseEvalArgs } from "./options.ts";
import { baseUrlProblem } from "./preflight.ts";

const root = path.resolve(import.meta.dirname, "..");

function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "eval/cli.ts"), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

describe("npm run eval with an unusable --base-url", () => {
  let closedUrl: string;
  let html: { server: Server; url: string };
  let notFound: { server: Server; url: string };
  let fake: OpenAIFake;

  beforeAll(async () => {
    const closed = await listen(() => {});
    closedUrl = closed.url;
    await new Promise((resolve) => closed.server.close(resolve));
    html = await listen((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<html>router login</html>"),
    );
    notFound = await listen((_req, res) =>
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: "model 'nope' not found" } })),
    );
    fake = await startOpenAIFake();
  });

  afterAll(async () => {
    html.server.close();
    notFound.server.close();
    await fake.close();
  });

  it("exits 1 naming the URL and that nothing listens there, before playing any scenario", async () => {
    const result = await runCli([
      "--base-url",
      closedUrl,
      "--model",
      "x",
      "--only",
      "time-after-jump",
      "--out",
      path.join(root, ".eval-test-out"),
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `The model server at ${closedUrl} cannot be used: the connection was refused (nothing listens there).`,
    );
    expect(result.stdout).not.toContain("0 %");
    expect(result.stderr).not.toContain("[1/");
  }, 120_000);

  it("names an HTTP error, a page that is not the API and a string that is not a URL", async () => {
    expect(await baseUrlProblem({ baseUrl: notFound.url, model: "nope" })).toBe(
      `The model server at ${notFound.url} cannot be used: POST ${notFound.url}/chat/completions answered HTTP 404: model 'nope' not found (is the path right, e.g. …/v1, and the --model name?).`,
    );
    expect(await baseUrlProblem({ baseUrl: html.url, model: "m" })).toBe(
      `The model server at ${html.url} cannot be used: POST ${html.url}/chat/completions answered text/html, not the OpenAI Chat Completions API.`,
    );
    expect(await baseUrlProblem({ baseUrl: "localhost:11434", model: "m" })).toContain(
      "it is not an http or https URL",
    );
    expect(await baseUrlProblem({ baseUrl: "not a url", model: "m" })).toContain(
      "The model server at not a url cannot be used: it is not a URL",
    );
    fake.enqueue({ kind: "http-error", status: 401, body: { error: { message: "Incorrect API key provided" } } });
    expect(await baseUrlProblem({ baseUrl: fake.url, model: "m", apiKey: "bad" })).toContain(
      "answered HTTP 401: Incorrect API key provided (check --api-key)",
    );
  });

  it("accepts a server that speaks the API", async () => {
    expect(await baseUrlProblem({ baseUrl: fake.url, model: "gpt-4o-mini" })).toBeNull();
  });
});

describe("npm run eval's flags", () => {
  it("refuses an unknown flag with the usage line", async () => {
    const result = await runCli(["--base-ur", "http://localhost:1/v1"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("eval: Unknown option '--base-ur'");
    expect(result.stderr).toContain("usage: npm run eval -- [--base-url URL");
  }, 120_000);

  it("says to put -- before the options when npm kept them for itself", async () => {
    // `npm run eval --base-url URL --model M` (no --) hands the script only "URL M" and keeps the flags as npm_config_*.
    const result = await runCli(["http://localhost:1/v1", "m"], {
      npm_config_base_url: "true",
      npm_config_model: "true",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "npm kept --base-url, --model for itself; put -- before the eval's options (npm run eval -- --base-url …)",
    );
    expect(result.stderr).toContain("usage: npm run eval --");
  }, 120_000);

  it("refuses a flag it would have ignored: --api-key without --base-url, before playing any scenario", async () => {
    const out = path.join(os.tmpdir(), `hintline-eval-cli-${process.pid}`);
    const result = await runCli(["--api-key", "sk-unused", "--only", "time-after-jump", "--out", out]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "eval: --api-key applies only with --base-url (without it the built-in demo model answers",
    );
    expect(result.stderr).not.toContain("[1/");
  }, 120_000);

  it("uses every option given or refuses it in words: --model and --api-key need --base-url, --context-window a number", () => {
    const check = (...args: string[]) => checkedOptions(parseEvalArgs(args, { NODE_ENV: "test" }));
    expect(() => check("--model", "llama3.1:8b")).toThrow("--model applies only with --base-url");
    expect(() => check("--model", "m", "--api-key", "k")).toThrow("--model and --api-key apply only with --base-url");
    for (const window of ["abc", "0", "-5", "1.5", "", "20000000"]) {
      expect(() => check(`--context-window=${window}`), window).toThrow(
        `--context-window must be a whole number of tokens from 1 to 10,000,000 (got "${window}")`,
      );
    }
    expect(() => check("--only", " , ")).toThrow("--only names no scenario");
    expect(check("--context-window", "32000", "--only", "a, b", "--runs", "2")).toEqual({
      runs: 2,
      contextWindow: 32_000,
      only: ["a", "b"],
    });
    expect(check("--base-url", "http://127.0.0.1:1/v1", "--model", "m", "--api-key", "k")).toEqual({
      runs: 1,
      contextWindow: undefined,
      only: undefined,
    });
  });
});
