// The first run shows the point (issue 30, item 9): the empty state's suggested first messages each show a kind of
// hint at work — time, tasks, a panel edit reaching the agent, context — and each gets a real answer from the demo.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

const suggestion = (chat: ChatPage, text: string) =>
  chat.emptyState.getByTestId("suggestion").filter({ hasText: text });

test("the suggestions name the kinds of hint they show, together time, tasks, a panel edit and context", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  const kinds = (
    await chat.emptyState
      .getByTestId("suggestion")
      .evaluateAll((cards) => cards.map((c) => c.getAttribute("data-kinds") ?? ""))
  )
    .join(" ")
    .split(" ");
  expect(new Set(kinds)).toEqual(new Set(["time", "tasks", "panel", "context"]));
});

test("What time is it? is answered from the time hint its chip shows", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await suggestion(chat, "What time is it?").click();
  await chat.waitForReplyDone();
  await expect(page.getByTestId("hint-chip").locator('[data-kind="time"]').first()).toBeVisible();
  expect(await chat.replyText()).toMatch(/it is \d{4}-\d\d-\d\dT\d\d:\d\d/);
});

test("How full is your context? is answered with the figure the meter shows", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await suggestion(chat, "How full is your context?").click();
  await chat.waitForReplyDone();
  const answer = await chat.replyText();
  const said = /\((\d+)%\)/.exec(answer);
  expect(said, answer).not.toBeNull();
  // The meter now counts the next input (question and answer included), the demo its own input as the provider's tool
  // objects spell it (a "type" key per tool): within two points of each other.
  const label = (await page.getByTestId("meter-label").filter({ visible: true }).first().textContent()) ?? "";
  const shown = Number(/(\d+)%/.exec(label)?.[1]);
  expect(Math.abs(shown - Number(said![1]))).toBeLessThanOrEqual(2);
  expect(answer).not.toMatch(/haven't received/);
});

test("Add tasks fills the panel; a tick there reaches the agent, whose answer to what's next? follows it", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await suggestion(chat, "Add tasks:").click();
  await chat.waitForReplyDone();
  await expect(chat.taskItems).toHaveCount(3);
  await expect(chat.lastAssistant().locator(".prose-chat li")).toHaveText([
    "#1 pack the boxes",
    "#2 book a van",
    "#3 label the kitchen",
  ]);
  expect(await chat.replyText()).toContain("Change one in the side panel");

  // The person ticks task 1 off in the panel (one click), then asks.
  await chat.taskPanel.getByRole("checkbox", { name: "Done: pack the boxes" }).click();
  await expect(chat.taskPanel.locator('[data-task-id="1"]')).toHaveAttribute("data-status", "completed");
  const answer = await chat.ask("What's next?");
  await expect(chat.lastAssistant().getByTestId("hint-chip").locator('[data-kind="tasks"]')).toBeVisible();
  expect(answer).toContain("You changed the task list in the panel");
  expect(answer).toContain("Next up: task #2 — book a van.");
});
