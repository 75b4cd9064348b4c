// The status strategy in the browser: chosen in the settings drawer; under replace each reply's status is drawn
// superseded once a newer one replaced it (before and after a reload), and the inspector says which strategy the last
// call used and why.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test("replace: the settings drawer switches the strategy, superseded statuses are drawn as such, the inspector names it", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.send("hello");
  await chat.waitForReplyDone();

  const drawer = await chat.openAdvancedSettings();
  await drawer.getByTestId("setting-injection.strategy").selectOption("replace");
  await chat.saveSettings(drawer);

  await chat.send("write 20 words about rivers");
  await chat.waitForReplyDone();
  await chat.send("write 20 words about lakes");
  await chat.waitForReplyDone();
  // Each replace reply carried a full status; every one but a reply's newest is gone from the next call.
  const superseded = page.locator('[data-testid="hint-chip"][data-superseded="true"]');
  await expect(superseded).not.toHaveCount(0);
  await expect(superseded.first().getByTestId("hint-superseded")).toHaveText("superseded");
  const before = await superseded.count();
  await chat.reload();
  await expect(page.locator('[data-testid="hint-chip"][data-superseded="true"]')).toHaveCount(before);

  await page.getByTestId("open-inspector").click();
  const strategy = page.getByTestId("inspector").getByTestId("inspector-strategy");
  await expect(strategy).toHaveAttribute("data-configured", "replace");
  await expect(strategy).toHaveAttribute("data-chosen", "replace");
  // In a person's words, with the figures: no cost-model symbols or jargon.
  await expect(strategy.getByRole("heading")).toHaveText("How the agent hears of changes");
  await expect(strategy.getByTestId("inspector-strategy-chosen")).toHaveText(
    "one up-to-date note at the end, replaced on every call",
  );
  await expect(strategy.getByTestId("inspector-strategy-reason")).toHaveText("Set in this conversation's settings.");
  await expect(strategy.getByTestId("inspector-strategy-figures")).toContainText(/The full note is [\d.,]+ tokens/);
  await expect(strategy).not.toContainText(/cost model|α|configured:|re-reading/);
});
