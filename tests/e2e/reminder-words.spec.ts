// Hints in plain words: the chip says "Time update …", a one-time explainer of what a reminder is sits under the
// first chip until it is dismissed (remembered across reloads and conversations), and the header's hint switch and
// inspector button carry words, not only icons.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test("chips speak plainly and the reminder explainer shows once", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await expect(page.getByTestId("toggle-hints")).toHaveText("Hints");
  await expect(page.getByTestId("toggle-hints")).toHaveAttribute("aria-pressed", "true");

  await chat.send("what time is it?");
  await chat.waitForReplyDone();
  const chip = chat.lastAssistant().getByTestId("hint-chip");
  await expect(chip.locator('[data-kind="time"]')).toHaveText(/^Time update \d\d:\d\d( [AP]M)? \S+$/);
  await expect(page.getByTestId("open-inspector")).toHaveText("Inspect");

  // The explainer sits right under the first chip, once.
  const explainer = page.getByTestId("reminder-explainer");
  await expect(explainer).toHaveCount(1);
  await expect(explainer).toContainText("reminds the model");
  const follows = await chat.lastAssistant().evaluate((el) => {
    const chipEl = el.querySelector('[data-testid="hint-chip"]');
    return chipEl?.nextElementSibling?.getAttribute("data-testid");
  });
  expect(follows).toBe("reminder-explainer");

  // Dismissed, it stays away: after a reload, and in a new conversation.
  await explainer.getByRole("button", { name: "Got it" }).click();
  await expect(explainer).toHaveCount(0);
  await chat.reload();
  await expect(chat.lastAssistant().getByTestId("hint-chip")).toHaveCount(1);
  await expect(explainer).toHaveCount(0);
  await chat.gotoNewChat();
  await chat.send("what time is it?");
  await chat.waitForReplyDone();
  await expect(chat.lastAssistant().getByTestId("hint-chip")).toHaveCount(1);
  await expect(explainer).toHaveCount(0);
  expect(
    await page.evaluate(() => JSON.parse(localStorage.getItem("hintline-ui") ?? "{}").state?.remindersExplained),
  ).toBe(true);
});
