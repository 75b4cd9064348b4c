// Retakes the README's picture (docs/screenshot.png, or the path given): `node scripts/screenshot.mjs [out.png]`.
// Builds the app when needed (as `npm start` does), serves it on the offline demo model with a throwaway SQLite
// database on a free loopback port, and drives Chromium (CHROMIUM_PATH, else /usr/bin/chromium) through a conversation
// in a workspace of its own: a clock hint chip, tasks in the side panel (one ticked off, which the next reply is told
// in a hint chip), and the context meter. Takes about a minute once the app is built.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { ensureBuild } from "./start.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const output = path.resolve(process.argv[2] ?? path.join(root, "docs/screenshot.png"));
const VIEWPORT = { width: 1440, height: 900 };
const MESSAGES = ["add tasks: pack the boxes; book a van; change the address", "what time is it?"];
const AFTER_TICK = "what's next?";

/** A port no one listens on now, on loopback. */
async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The app on the demo model: no provider from this shell's environment, a database of its own. */
async function startApp(dir) {
  const env = { ...process.env, DATABASE_URL: `file:${path.join(dir, "screenshot.db")}`, NEXT_TELEMETRY_DISABLED: "1" };
  for (const key of Object.keys(env))
    if (/^(OPENAI|ANTHROPIC|GOOGLE_GENERATIVE_AI|GOOGLE)_|^HINTLINE_(MODEL|AUTH)/.test(key)) delete env[key];
  const migrated = spawnSync(process.execPath, [path.join(root, "scripts/db-migrate.mjs"), "deploy"], {
    cwd: root,
    env,
    stdio: "inherit",
  });
  if (migrated.status !== 0) throw new Error("screenshot: the database migration failed (its output is above)");
  const port = await freePort();
  const server = spawn(process.execPath, [path.join(root, "scripts/server.mjs")], {
    cwd: root,
    env: { ...env, HOST: "127.0.0.1", PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; waited < 120_000; waited += 250) {
    if (server.exitCode !== null) throw new Error(`screenshot: the server exited (status ${server.exitCode})`);
    const answered = await fetch(`${url}/api/model`).then(
      (r) => r.ok,
      () => false,
    );
    if (answered) return { server, url };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  server.kill("SIGTERM");
  throw new Error("screenshot: the server did not answer within 2 minutes");
}

/** Sends a message from the composer and waits until its reply is written. */
async function send(page, text) {
  const replies = page.getByTestId("message-assistant");
  const before = await replies.count();
  await page.getByTestId("composer-input").fill(text);
  await page.getByTestId("composer-input").press("Enter");
  await replies.nth(before).waitFor();
  await page.getByTestId("send-button").waitFor();
  await page.locator('[data-testid="message-assistant"][data-status="streaming"]').waitFor({ state: "detached" });
}

async function takePicture(url) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: "light", timezoneId: "Europe/Berlin" });
    await page.goto(`${url}/`);
    await page.getByTestId("conversation-list").first().locator("li").first().waitFor({ state: "attached" });
    const switcher = page.getByTestId("workspace-switcher").filter({ visible: true });
    await switcher.getByTestId("workspace-new").click();
    await switcher.getByTestId("workspace-name-input").fill("Moving house");
    await switcher.getByTestId("workspace-name-input").press("Enter");
    await switcher.getByTestId("workspace-name-input").waitFor({ state: "hidden" });
    for (const text of MESSAGES) await send(page, text);
    await page.getByTestId("side-panel").getByTestId("task-done").first().click();
    await send(page, AFTER_TICK);
    // The pointer off every control, so that no hover state is in the picture.
    await page.mouse.move(0, VIEWPORT.height - 1);
    await page.waitForTimeout(500);
    await page.screenshot({ path: output });
  } finally {
    await browser.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-screenshot-"));
  const { server, url } = await startApp(dir);
  try {
    await takePicture(url);
    console.log(`screenshot: saved ${path.relative(process.cwd(), output)} (${VIEWPORT.width}×${VIEWPORT.height})`);
  } finally {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
