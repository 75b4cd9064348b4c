import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// Browser tests drive Debian's Chromium (never a downloaded browser) against real servers (scripts/server.mjs, which runs Next.js):
// one on the offline demo model, one pointed at the OpenAI fake, which runs as its own process, and one on the demo
// model behind an access token.
// HINTLINE_E2E_PORT_BASE moves all four ports, so two checkouts can run their browser tests side by side.
const PORT_BASE = Number(process.env.HINTLINE_E2E_PORT_BASE) || 3400;
export const DEMO_PORT = PORT_BASE + 1;
export const FAKE_APP_PORT = PORT_BASE + 2;
export const FAKE_PORT = PORT_BASE + 9;
/** The Anthropic fake: the fake app's second provider (its models are offered beside the OpenAI fake's). */
export const ANTHROPIC_FAKE_PORT = PORT_BASE + 8;
/** A third app instance that requires an access token (HINTLINE_AUTH_TOKEN), for the sign-in and cross-site tests. */
export const AUTH_APP_PORT = PORT_BASE + 3;
export const AUTH_APP_URL = `http://127.0.0.1:${AUTH_APP_PORT}`;
export const AUTH_TOKEN = "e2e-access-token";
const stamp = `${process.pid}`;
const db = (name: string) => `file:${path.join(os.tmpdir(), `hintline-e2e-${stamp}`, `${name}.db`)}`;
const next = (port: number) => `HOST=127.0.0.1 PORT=${port} node scripts/server.mjs`;
const migrate = (url: string) => `DATABASE_URL=${url} node scripts/db-migrate.mjs deploy`;

// The servers inherit this process's environment: a provider or token set there would change what they test.
for (const key of [
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_BASE_URL",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "GOOGLE_BASE_URL",
  "HINTLINE_MODEL",
  "HINTLINE_AUTH_TOKEN",
  "DATABASE_URL",
])
  delete process.env[key];
// The tests' MCP servers listen on loopback, which a workspace's server may reach only with this set (every server
// started here inherits it).
process.env.HINTLINE_MCP_ALLOW_PRIVATE = "1";

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // A focused test (`test.only`) left in would make CI run one test and pass.
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${DEMO_PORT}`,
    // A failed test keeps its trace (actions, DOM snapshots, network, console) and a screenshot. The trace's screencast
    // is left out: recording it for every test cost about half of the browser's CPU, which the api suite beside it
    // needs (measured on live.spec and tasks.spec: Chromium's CPU 86 s with it, 40 s without).
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: true },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: [
    {
      command: `${migrate(db("demo"))} && DATABASE_URL=${db("demo")} HINTLINE_DEMO_WORD_DELAY_MS=25 ${next(DEMO_PORT)}`,
      url: `http://127.0.0.1:${DEMO_PORT}/api/model`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { NEXT_TELEMETRY_DISABLED: "1" },
    },
    {
      // A low cache threshold (OpenAI's is 1,024 tokens), so that the short conversations of the tests get cache hits.
      command: `node --experimental-strip-types tests/support/openai-fake-cli.ts --port ${FAKE_PORT} --cache-min-tokens 128`,
      url: `http://127.0.0.1:${FAKE_PORT}/v1/models`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `node --experimental-strip-types tests/support/provider-fake-cli.ts --provider anthropic --port ${ANTHROPIC_FAKE_PORT} --api-key anthropic-test-key`,
      url: `http://127.0.0.1:${ANTHROPIC_FAKE_PORT}/v1/models`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `${migrate(db("fake"))} && DATABASE_URL=${db("fake")} ${next(FAKE_APP_PORT)}`,
      url: `http://127.0.0.1:${FAKE_APP_PORT}/api/model`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        NEXT_TELEMETRY_DISABLED: "1",
        OPENAI_BASE_URL: `http://127.0.0.1:${FAKE_PORT}/v1`,
        OPENAI_API_KEY: "test-key",
        HINTLINE_MODEL: "fake-model",
        // The fake model takes images (attachments.spec.ts sends it one).
        HINTLINE_IMAGE_MODELS: "fake-model",
        // A second provider, so that a conversation can switch between two (the model picker).
        ANTHROPIC_API_KEY: "anthropic-test-key",
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${ANTHROPIC_FAKE_PORT}/v1`,
        // One visible retry per failed call, with a short backoff (a provider's retry-after wins).
        HINTLINE_MAX_RETRIES: "1",
        HINTLINE_RETRY_BASE_MS: "100",
        // Prices for the fake model, so that the inspector shows costs.
        HINTLINE_PRICE_INPUT: "2.5",
        HINTLINE_PRICE_CACHED_INPUT: "1.25",
        HINTLINE_PRICE_OUTPUT: "10",
      },
    },
    {
      command: `${migrate(db("auth"))} && DATABASE_URL=${db("auth")} ${next(AUTH_APP_PORT)}`,
      // The sign-in page is the one page served without the token.
      url: `${AUTH_APP_URL}/sign-in`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { NEXT_TELEMETRY_DISABLED: "1", HINTLINE_AUTH_TOKEN: AUTH_TOKEN },
    },
  ],
});
