// Keyboard shortcuts: the help dialog (the "?" button, ? and Ctrl+/), new chat, focus the message box, the side
// panel, and "?" typed in the message box staying a character.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test("shortcuts open the help dialog, start a new chat, focus the message box and toggle the side panel", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.send("hello");
  await chat.waitForReplyDone();
  const first = await chat.conversationId();

  // "?" typed in the message box is text, not the help.
  await chat.input.focus();
  await page.keyboard.type("why?");
  await expect(chat.input).toHaveValue("why?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toHaveCount(0);

  // Ctrl+/ opens the list from anywhere; it names every shortcut; Esc closes it and focus goes back.
  await page.keyboard.press("Control+/");
  await expect(help).toBeVisible();
  await expect(help).toHaveAttribute("aria-modal", "true");
  for (const text of [
    "New chat",
    "Focus the message box",
    "Show or hide the side panel",
    "Stop the reply",
    "Switch plan / build mode",
  ]) {
    await expect(help.getByTestId("shortcut").filter({ hasText: text })).toHaveCount(1);
  }
  await expect(help.getByTestId("shortcut").filter({ hasText: "New chat" })).toContainText("Ctrl+Shift+O");
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
  await expect(chat.input).toBeFocused();

  // "?" outside a text field opens it; so does the labelled button.
  await page.getByTestId("open-settings").focus();
  await page.keyboard.press("?");
  await expect(help).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("open-settings")).toBeFocused();
  // (the "?" button sits in the header when it is wide, in its "More" menu otherwise)
  await page.getByRole("button", { name: "More" }).click();
  await page.getByRole("menuitem", { name: "Keyboard shortcuts" }).click();
  await expect(help).toBeVisible();
  await help.getByRole("button", { name: "Close" }).click();
  await expect(help).toBeHidden();
  await page.setViewportSize({ width: 1440, height: 800 });
  await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
  await expect(help).toBeVisible();
  await help.getByRole("button", { name: "Close" }).click();
  await expect(help).toBeHidden();
  await page.setViewportSize({ width: 1280, height: 720 });

  // Shift+Esc puts focus in the message box.
  await page.getByTestId("open-settings").focus();
  await page.keyboard.press("Shift+Escape");
  await expect(chat.input).toBeFocused();

  // Ctrl+. hides and shows the side panel on a wide screen, and opens and closes its drawer on a narrow one.
  const panel = page.getByTestId("side-panel");
  await expect(panel).toBeVisible();
  await page.keyboard.press("Control+.");
  await expect(panel).toBeHidden();
  await page.keyboard.press("Control+.");
  await expect(panel).toBeVisible();
  await page.setViewportSize({ width: 800, height: 800 });
  await expect(panel).toBeHidden();
  await page.keyboard.press("Control+.");
  await expect(page.getByTestId("panel-drawer")).toBeVisible();
  await page.keyboard.press("Control+.");
  await expect(page.getByTestId("panel-drawer")).toBeHidden();
  await page.setViewportSize({ width: 1280, height: 800 });

  // Ctrl+Shift+O starts a new chat.
  await page.keyboard.press("Control+Shift+O");
  await expect(chat.emptyState).toBeVisible();
  expect(await chat.conversationId()).not.toBe(first);
});
