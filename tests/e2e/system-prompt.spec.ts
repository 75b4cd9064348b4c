// Editing the standing instructions in the settings drawer and seeing the next model input change in the inspector,
// whose two token counts say which is which.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test("instructions edited in the UI reach the next model input, shown section by section in the inspector", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.send("hello");
  await chat.waitForReplyDone();

  await page.getByTestId("open-inspector").click();
  const inspector = page.getByTestId("inspector");
  // The base prompt, the workspace section and the Subagents section (the built-in general-purpose agent).
  await expect(inspector.getByTestId("inspector-section")).toHaveCount(3);
  await expect(inspector.locator('[data-section="subagents"]')).toHaveCount(1);
  await expect(inspector.locator('[data-section="instructions"]')).toHaveCount(0);
  // The first reply's time hint is part of the input, as a user-role message.
  await expect(inspector.locator('[data-testid="inspector-message"][data-hint="true"]')).toHaveCount(1);
  await inspector.getByTestId("inspector-hints").uncheck();
  await expect(inspector.locator('[data-testid="inspector-message"][data-hint="true"]')).toHaveCount(0);
  await page.getByRole("button", { name: "Close inspector" }).click();

  const drawer = await chat.openSettings();
  await drawer.getByTestId("setting-prompt.instructions").fill("Always answer in haiku.");
  await chat.saveSettings(drawer);

  await page.getByTestId("open-inspector").click();
  const section = inspector.locator('[data-section="instructions"]');
  await expect(section).toHaveCount(1);
  await expect(section).toContainText("conversation settings");
  await section.locator("summary").click();
  await expect(section.getByTestId("inspector-section-text")).toHaveText(
    "# Instructions\nStanding rules from the person; follow them throughout.\nAlways answer in haiku.",
  );
  // The two token counts say which is which: the next input counted here, the last call as the provider counted it.
  await expect(inspector.getByTestId("inspector-total")).toHaveText(
    /^next input: [\d,]+ tokens of 8,192 \(counted here\)$/,
  );
  await expect(inspector.getByTestId("inspector-last-call")).toHaveText(
    /^last call, as the provider counted: [\d,]+ tokens$/,
  );
});
