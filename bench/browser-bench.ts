// The chat in a real browser: Chromium (Playwright) against a built `next start` on the offline demo model, with
// conversations of 20, 200 and 2,000 messages made through the import API. For each size, in a fresh browser context
// (nothing cached): the time from navigation to the last message being visible, the DOM node count once settled,
// key-to-frame latency while typing in the composer (input event → next requestAnimationFrame callback, and → the
// first task after that frame, which includes style, layout and paint), and the JavaScript shipped on first load (sum
// of the script resources' transfer sizes). Prints a markdown table; asserts nothing.
//   BENCH_BROWSER_RUNS (3 page loads per size) · BENCH_KEYS (40 keystrokes per load) · CHROMIUM_PATH
import { type Browser, chromium } from "@playwright/test";
import { seedMessages } from "./http-scenarios.ts";
import { startApp, stopAll } from "./servers.ts";
import { markdownTable, num, summarize } from "./stats.ts";

const RUNS = Number(process.env.BENCH_BROWSER_RUNS ?? 3);
const KEYS = Number(process.env.BENCH_KEYS ?? 40);
const SIZES = [20, 200, 2_000] as const;
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

type Load = { lastVisibleMs: number; domNodes: number; scriptBytes: number; keyToRaf: number[]; keyToPaint: number[] };

declare global {
  interface Window {
    __benchLastVisible?: number;
    __benchKeys?: { raf: number[]; paint: number[] };
  }
}

async function importConversation(url: string, size: number): Promise<{ id: string; lastId: string }> {
  const id = `browser-bench-${size}-${Date.now().toString(36)}`;
  const messages = seedMessages(size, id);
  const response = await fetch(`${url}/api/conversations/import`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ version: 1, conversation: { id, title: `Bench ${size}`, messages } }),
  });
  if (response.status !== 201)
    throw new Error(`import of ${size} messages: HTTP ${response.status} ${await response.text()}`);
  const { id: stored } = (await response.json()) as { id: string };
  return { id: stored, lastId: messages.at(-1)!.id };
}

async function load(browser: Browser, url: string, id: string, lastId: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // From the first script on: a frame loop that notes when the last message first lies inside the viewport.
  // A string, not a function: tsx would add its own helpers (__name) to a function's source, unknown in the page.
  await page.addInitScript(`(() => {
    const target = ${JSON.stringify(lastId)};
    const check = () => {
      const el = document.querySelector('[data-message-id="' + target + '"]');
      if (el) {
        const rect = el.getBoundingClientRect();
        if (rect.height > 0 && rect.bottom > 0 && rect.top < window.innerHeight) {
          window.__benchLastVisible = performance.now();
          return;
        }
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })();`);
  await page.goto(`${url}/c/${id}`);
  await page.waitForFunction(() => window.__benchLastVisible !== undefined, undefined, { timeout: 60_000 });
  await page.getByTestId("composer-input").waitFor();
  // Settle: the list fetched, fonts and lazy chunks loaded.
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(500);
  const { lastVisibleMs, domNodes, scriptBytes } = await page.evaluate(() => ({
    lastVisibleMs: window.__benchLastVisible ?? Number.NaN,
    domNodes: document.getElementsByTagName("*").length,
    scriptBytes: performance
      .getEntriesByType("resource")
      .filter((e) => (e as PerformanceResourceTiming).initiatorType === "script" || /\.js(\?|$)/.test(e.name))
      .reduce((sum, e) => sum + (e as PerformanceResourceTiming).transferSize, 0),
  }));
  await page.evaluate(`(() => {
    const keys = { raf: [], paint: [] };
    window.__benchKeys = keys;
    const box = document.querySelector('[data-testid="composer-input"]');
    box.addEventListener("input", (event) => {
      const start = event.timeStamp;
      requestAnimationFrame(() => {
        keys.raf.push(performance.now() - start);
        const channel = new MessageChannel();
        channel.port1.onmessage = () => keys.paint.push(performance.now() - start);
        channel.port2.postMessage(null);
      });
    });
  })()`);
  await page.getByTestId("composer-input").click();
  for (let i = 0; i < KEYS; i++) {
    await page.keyboard.type(String.fromCharCode(97 + (i % 26)));
    await page.waitForTimeout(30);
  }
  await page.waitForTimeout(200);
  const keys = await page.evaluate(() => window.__benchKeys ?? { raf: [], paint: [] });
  await context.close();
  return { lastVisibleMs, domNodes, scriptBytes, keyToRaf: keys.raf, keyToPaint: keys.paint };
}

async function main(): Promise<void> {
  const app = await startApp({});
  log(`server pid ${app.pid} at ${app.url} (demo model)`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
    ],
  });
  try {
    const rows: string[][] = [];
    for (const size of SIZES) {
      const { id, lastId } = await importConversation(app.url, size);
      // One untimed load warms the server's caches for this conversation (the figures are the browser's).
      await load(browser, app.url, id, lastId);
      const loads: Load[] = [];
      for (let run = 0; run < RUNS; run++) {
        log(`${size} messages: load ${run + 1}/${RUNS}`);
        loads.push(await load(browser, app.url, id, lastId));
      }
      const raf = summarize(loads.flatMap((l) => l.keyToRaf));
      const paint = summarize(loads.flatMap((l) => l.keyToPaint));
      const visible = summarize(loads.map((l) => l.lastVisibleMs));
      rows.push([
        num(size, 0),
        `${num(visible.p50, 0)} ms`,
        `${num(raf.p50, 1)} / ${num(raf.p95, 1)} ms`,
        `${num(paint.p50, 1)} / ${num(paint.p95, 1)} ms`,
        num(summarize(loads.map((l) => l.domNodes)).p50, 0),
        `${num(summarize(loads.map((l) => l.scriptBytes)).p50 / 1024, 0)} KiB`,
      ]);
    }
    console.log(
      `\nThe chat in Chromium (${RUNS} fresh loads per size, ${KEYS} keystrokes each; median of loads, p50 / p95 of keys)\n`,
    );
    console.log(
      markdownTable(
        [
          "Messages",
          "Navigation → last message visible",
          "Key → next frame (rAF)",
          "Key → after paint",
          "DOM nodes",
          "JS on first load",
        ],
        rows,
      ),
    );
  } finally {
    await browser.close();
    await stopAll();
  }
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
