// The numbers a person sees, in Chromium on the demo model: the meter's headline is its breakdown's total and never
// goes down during a reply; "Compress now" says when it cannot gain and shows its chip at once when it does; a task
// added while the server cannot be reached keeps its text and says what happened.
import { expect, type Page, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

type Reading = { tokens: number; parts: number };

/** Records, in the page, every value the meter shows (headline and breakdown rows) as it changes. */
async function watchMeter(page: Page): Promise<() => Promise<Reading[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { meterReadings: Array<{ tokens: number; parts: number }> };
    w.meterReadings = [];
    const read = () => {
      const meter = [...document.querySelectorAll('[data-testid="context-meter"]')].find(
        (m) => (m as HTMLElement).offsetParent !== null,
      );
      if (!meter) return;
      const parts = [
        ...meter.querySelectorAll('[data-testid="meter-details"] dl:not([data-testid="meter-mcp-tools"]) dd'),
      ].reduce((n, dd) => n + Number((dd.textContent ?? "").replace(/\D/g, "")), 0);
      const reading = { tokens: Number(meter.getAttribute("data-tokens")), parts };
      const last = w.meterReadings.at(-1);
      if (!last || last.tokens !== reading.tokens || last.parts !== reading.parts) w.meterReadings.push(reading);
    };
    read();
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
  return () => page.evaluate(() => (window as unknown as { meterReadings: Reading[] }).meterReadings);
}

test("the meter's headline is its breakdown's total and only rises during a streamed reply with tool calls", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.send("hello");
  await chat.waitForReplyDone();
  await chat.reload();
  const meter = page.getByTestId("context-meter").filter({ visible: true });
  await meter.getByRole("button").first().click();
  await expect(meter.getByTestId("meter-details")).toBeVisible();
  const readings = await watchMeter(page);

  await chat.send("add tasks: draft; review; publish");
  await chat.waitForReplyDone();
  await chat.send("write 200 words about rivers");
  await chat.waitForReplyDone();
  const seen = await readings();
  expect(seen.length).toBeGreaterThanOrEqual(3);
  for (const r of seen) expect(r).toEqual({ tokens: r.tokens, parts: r.tokens });
  for (let i = 1; i < seen.length; i++) expect(seen[i]!.tokens).toBeGreaterThanOrEqual(seen[i - 1]!.tokens);
  // After a reload the server's figure is the one the reply ended on.
  const lastLive = seen.at(-1)!.tokens;
  await chat.reload();
  await expect(page.getByTestId("context-meter").filter({ visible: true })).toHaveAttribute(
    "data-tokens",
    String(lastLive),
  );
});

test("Compress now says when there is nothing to gain, and changes nothing", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.send("hello");
  await chat.waitForReplyDone();
  const meter = page.getByTestId("context-meter").filter({ visible: true });
  await meter.getByRole("button").first().click();
  const compact = meter.getByTestId("compact-now");
  await compact.click();
  await expect(meter.getByRole("status")).toHaveText(/^Nothing to compress yet: /);
  await expect(page.getByTestId("compression-chip")).toHaveCount(0);
  await expect(chat.assistantMessages).toHaveCount(1);
});

test("Compress now shows its chip in the transcript at once, and the meter drops", async ({ page }) => {
  test.setTimeout(90_000);
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  for (let i = 0; i < 3; i++) {
    await chat.send("write 400 words about rivers");
    await chat.waitForReplyDone({ timeout: 30_000 });
  }
  await chat.send("hello");
  await chat.waitForReplyDone();
  const meter = page.getByTestId("context-meter").filter({ visible: true });
  await meter.getByRole("button").first().click();
  const before = Number(await meter.getAttribute("data-tokens"));
  await meter.getByTestId("compact-now").click();
  // The chip is in the transcript without a reload, and the meter dropped.
  const chip = page.getByTestId("compression-chip");
  await expect(chip).toHaveCount(1);
  await expect(chip).toContainText(/Context compressed · [\d.]+k? → [\d.]+k? tokens/);
  await expect.poll(async () => Number(await meter.getAttribute("data-tokens"))).toBeLessThan(before);
  await expect(meter.getByRole("status")).toHaveCount(0);
  await chat.reload();
  await expect(page.getByTestId("compression-chip")).toHaveCount(1);
});

test("a task added while the server cannot be reached keeps its text and says what happened", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.send("hello");
  await chat.waitForReplyDone();
  await page.route("**/api/conversations/*/tasks", (route) =>
    route.request().method() === "POST" ? route.abort("connectionrefused") : route.fallback(),
  );
  await chat.taskAddInput.fill("Buy milk");
  await chat.taskAddInput.press("Enter");
  const alert = chat.taskPanel.getByRole("alert");
  await expect(alert).toHaveText("Can't reach the server — your task is kept; try again when it is back.");
  await expect(chat.taskAddInput).toHaveValue("Buy milk");
  await expect(chat.taskItems).toHaveCount(0);

  // The server is back: the same Enter adds it, clears the box and the message.
  await page.unroute("**/api/conversations/*/tasks");
  await chat.taskAddInput.press("Enter");
  await expect(chat.taskItems).toHaveCount(1);
  await expect(chat.taskPanel.getByTestId("task-subject")).toHaveText("#1Buy milk");
  await expect(chat.taskAddInput).toHaveValue("");
  await expect(alert).toHaveCount(0);
});
