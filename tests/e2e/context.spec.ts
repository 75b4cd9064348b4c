// The context meter and compression in the browser, on the demo model with a small window for this conversation (room
// for the fixed part — the system prompt and the tools, in brief at this window: about 1.3k tokens — and a few turns).
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test("the meter rises, the context hint appears, compression happens with its chip, and the meter drops", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.send("hello");
  await chat.waitForReplyDone();
  const id = await chat.conversationId();
  const patch = await page.request.patch(`/api/conversations/${id}`, {
    data: { settings: { context: { contextWindow: 6000 } } },
  });
  expect(patch.status()).toBe(200);
  await chat.reload();

  const meter = page.getByTestId("context-meter").filter({ visible: true });
  const tokens = async () => Number(await meter.getAttribute("data-tokens"));
  const before = await tokens();
  await expect(meter.getByTestId("meter-label")).toContainText("/ 6.0k");

  let compressed = false;
  const seen: number[] = [before];
  for (let turn = 0; turn < 8 && !compressed; turn++) {
    await chat.send("write 450 words about rivers");
    await chat.waitForReplyDone({ timeout: 30_000 });
    seen.push(await tokens());
    compressed = (await chat.lastAssistant().getByTestId("compression-chip").count()) > 0;
  }
  expect(compressed).toBe(true);
  // The meter rose before the compression and dropped with it.
  expect(Math.max(...seen.slice(0, -1))).toBeGreaterThan(before);
  expect(seen.at(-1)!).toBeLessThan(Math.max(...seen.slice(0, -1)));
  // A context-usage hint warned before the trigger was reached.
  await expect(page.locator('[data-testid="hint-chip"] [data-kind="context"]').first()).toBeVisible();

  const chip = chat.lastAssistant().getByTestId("compression-chip");
  await expect(chip).toContainText(/Context compressed · [\d.]+k? → [\d.]+k? tokens/);
  await chip.getByRole("button").click();
  await expect(chip.getByTestId("compression-summary")).toContainText("## Task Overview");
  // A fresh time hint follows the compression, and the visible history is intact: every message kept (counted in the
  // stored view: the transcript is virtualised) and the first one reached by scrolling up.
  await expect(chat.lastAssistant().locator('[data-testid="hint-chip"] [data-kind="time"]')).toHaveCount(1);
  const view = (await (await page.request.get(`/api/conversations/${id}`)).json()) as { messages: { role: string }[] };
  expect(view.messages.filter((m) => m.role === "user")).toHaveLength(seen.length);
  await expect
    .poll(async () => {
      await chat.messageList.evaluate((el) => {
        el.scrollTop = 0;
      });
      return chat.userMessages.first().textContent();
    })
    .toBe("hello");

  // The breakdown is one click away.
  await meter.getByRole("button").first().click();
  await expect(meter.getByTestId("meter-details")).toContainText("Summary");
  // The fixed part is a band of its own, and said in words: at most 35 % of the window (issue 46).
  const fixed = Number(await meter.getByTestId("meter-fixed").getAttribute("data-tokens"));
  expect(fixed).toBeGreaterThan(0);
  expect(fixed).toBeLessThanOrEqual(0.35 * 6000);
  await expect(meter.getByTestId("meter-fixed-part")).toContainText(
    `Fixed part (system prompt and tools): ${fixed.toLocaleString("en-US")} tokens`,
  );
});
