// Errors in words: when the server cannot be reached, the chat says so plainly (not "Failed to fetch"), keeps the
// message, and Retry sends it once the server is back.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test("an unreachable server is explained in words, and Retry sends the kept message when it is back", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await page.route("**/api/chat", (route) => route.abort("connectionrefused"));
  await chat.send("hello while offline");

  await expect(chat.chatError.locator("p")).toHaveText(
    "Can't reach the server — your message is kept; retry when it is back.",
  );
  await expect(chat.chatError).not.toContainText("Failed to fetch");
  await expect(chat.lastUser()).toHaveText("hello while offline");

  await page.unroute("**/api/chat");
  await chat.retryButton.click();
  await chat.waitForReplyDone();
  await expect(chat.chatError).toBeHidden();
  await expect(chat.lastAssistant()).toHaveAttribute("data-status", "complete");
  await expect(chat.lastAssistant()).toContainText("Hintline demo model");
});
