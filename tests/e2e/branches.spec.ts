// Branches in the browser with the demo model: editing an earlier message of the person's keeps the old version and
// what followed it, reachable with ‹ n/N › under the message; switching shows each version whole, survives a reload,
// and the model input diverges only there (the inspector names it "branch").
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test("edit an earlier message into a branch, switch between versions, and keep them across a reload", async ({
  page,
  request,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.ask("first question");
  await chat.ask("second question");
  await chat.ask("third question");
  const id = await chat.conversationId();
  const texts = async () => (await chat.userMessages.allTextContents()).map((t) => t.trim());
  expect(await texts()).toEqual(["first question", "second question", "third question"]);

  // Edit the second message: it and everything after it go; its new version gets a reply.
  const second = page.getByTestId("message-user").filter({ hasText: "second question" }).locator("..");
  await second.getByTestId("edit-message-button").click();
  const editor = page.getByTestId("edit-message-input");
  await expect(editor).toBeFocused();
  await editor.fill("second question, rephrased");
  await editor.press("Enter");
  await chat.waitForReplyDone();
  expect(await texts()).toEqual(["first question", "second question, rephrased"]);
  const switcher = page.getByTestId("branch-switcher");
  await expect(switcher).toHaveCount(1);
  await expect(switcher.getByTestId("branch-position")).toHaveText("2/2");
  await expect(switcher.getByTestId("branch-next")).toBeDisabled();

  // Back to the first version: whole, with its later turns.
  await switcher.getByTestId("branch-previous").click();
  await expect(switcher.getByTestId("branch-position")).toHaveText("1/2");
  await expect.poll(texts).toEqual(["first question", "second question", "third question"]);

  // Stored: a reload shows the version last chosen, and the arrows still work.
  await chat.reload();
  await expect.poll(texts).toEqual(["first question", "second question", "third question"]);
  await expect(page.getByTestId("branch-position")).toHaveText("1/2");
  await page.getByTestId("branch-next").click();
  await expect.poll(texts).toEqual(["first question", "second question, rephrased"]);

  // The next message continues the version shown; the model input diverged there, by the person's choice.
  await chat.ask("and then?");
  expect(await texts()).toEqual(["first question", "second question, rephrased", "and then?"]);
  const context = (await (await request.get(`/api/conversations/${id}/context`)).json()) as {
    cache: { breaks: Array<{ cause: string }> };
  };
  expect(context.cache.breaks.map((b) => b.cause)).toContain("branch");

  // Cancel leaves everything as it was.
  const first = page.getByTestId("message-user").filter({ hasText: "first question" }).locator("..");
  await first.getByTestId("edit-message-button").click();
  await page.getByTestId("edit-message-input").press("Escape");
  await expect(page.getByTestId("edit-message")).toHaveCount(0);
  expect(await texts()).toEqual(["first question", "second question, rephrased", "and then?"]);
});
