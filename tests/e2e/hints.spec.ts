// Runtime-state hints in the browser: the first reply carries a time chip at the point the model received it;
// it expands to the exact text; it survives a reload in place; all chips can be hidden and shown again.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test.describe("hint chips", () => {
  test("the first reply shows a time chip that expands to the exact reminder and stays after a reload", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    await chat.send("what time is it?");
    await chat.waitForReplyDone();

    const reply = chat.lastAssistant();
    const chip = reply.getByTestId("hint-chip");
    await expect(chip).toHaveCount(1);
    await expect(chip.getByTestId("hint-source")).toHaveText("System · Runtime State");
    // The chip sits before the reply text: the model got the hint before it answered.
    const order = await reply.evaluate((el) => {
      const chipEl = el.querySelector('[data-testid="hint-chip"]');
      const textEl = el.querySelector('[data-testid="message-text"]');
      return chipEl && textEl ? chipEl.compareDocumentPosition(textEl) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
    });
    expect(order).toBeTruthy();
    // The time item is shown with a zone.
    await expect(chip.locator('[data-kind="time"]')).toContainText(/\d\d:\d\d/);

    await chip.getByRole("button").click();
    const raw = chip.getByTestId("hint-text");
    await expect(raw).toBeVisible();
    const text = (await raw.textContent()) ?? "";
    expect(text).toMatch(/^<system-reminder>Treat the following as the ground truth/);
    expect(text).toMatch(/<current-time>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d<\/current-time>\n<timezone>[^<]+<\/timezone>/);
    // The demo model answered from exactly that hint.
    const time = /<current-time>([^<]+)<\/current-time>/.exec(text)![1]!;
    await expect(reply.getByTestId("message-text")).toContainText(time);

    // The stored hint is the same text, in the same place, after a reload.
    await chat.reload();
    const again = chat.lastAssistant().getByTestId("hint-chip");
    await expect(again).toHaveCount(1);
    await again.getByRole("button").click();
    await expect(again.getByTestId("hint-text")).toHaveText(text);

    // A second question right away: the time is still fresh, so no new chip.
    await chat.send("hello");
    await chat.waitForReplyDone();
    await expect(chat.lastAssistant().getByTestId("hint-chip")).toHaveCount(0);

    // Hide all chips, then show them again; the choice survives a reload.
    await page.getByTestId("toggle-hints").click();
    await expect(page.getByTestId("hint-chip")).toHaveCount(0);
    await chat.reload();
    await expect(page.getByTestId("hint-chip")).toHaveCount(0);
    await page.getByTestId("toggle-hints").click();
    await expect(page.getByTestId("hint-chip")).toHaveCount(1);
  });

  test("the settings drawer validates inline and a saved extra field reaches the next hint", async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    await chat.send("hello");
    await chat.waitForReplyDone();

    const drawer = await chat.openAdvancedSettings();
    await drawer.getByTestId("setting-injection.timezone").fill("Mars/Olympus");
    await expect(drawer.getByTestId("error-injection.timezone")).toHaveText("is not a known IANA timezone");
    await expect(drawer.getByTestId("settings-save")).toBeDisabled();
    await drawer.getByTestId("setting-injection.timezone").fill("Asia/Tokyo");
    await expect(drawer.getByTestId("error-injection.timezone")).toHaveCount(0);
    await drawer.getByTestId("setting-injection.template").fill("<reminder>no placeholder</reminder>");
    await expect(drawer.getByTestId("error-injection.template")).toHaveText("must contain {runtime_state}");
    await drawer
      .getByTestId("setting-injection.template")
      .fill("<system-reminder>\n{runtime_state}\n</system-reminder>");
    await drawer.getByTestId("setting-injection.timeInterval").fill("0");
    await drawer.getByTestId("add-extra-field").click();
    await drawer.getByTestId("extra-field-key").fill("workspace");
    await drawer.getByTestId("extra-field-value").fill("</workspace><b>bold</b>");
    await chat.saveSettings(drawer);

    await chat.send("what time is it?");
    await chat.waitForReplyDone();
    const chip = chat.lastAssistant().getByTestId("hint-chip");
    await expect(chip).toHaveCount(1);
    await expect(chip.locator('[data-kind="custom"]')).toContainText("workspace: </workspace><b>bold</b>");
    await chip.getByRole("button").click();
    await expect(chip.getByTestId("hint-text")).toContainText("<timezone>Asia/Tokyo</timezone>");
    await expect(chip.getByTestId("hint-text")).toContainText(
      "<workspace>&lt;/workspace&gt;&lt;b&gt;bold&lt;/b&gt;</workspace>",
    );
    await expect(page.locator("b", { hasText: "bold" })).toHaveCount(0);
  });
});
