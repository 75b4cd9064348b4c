// Steer and queue in the browser (issue 45, item 4), against the app on the OpenAI fake with a slow reply: while it
// runs, the keys are said beside the box; Ctrl+Enter steers (the agent reads it after the current step, and the
// transcript shows it there, inside the reply), Enter queues (the next turn once the reply ends), each queued message
// is listed above the box with Cancel, reached and pressed from the keyboard; the view is axe-clean.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectAxeClean } from "./support/axe";
import { chatRequests, enqueueReplies, FAKE_APP_URL, resetFake } from "./support/openai-fake-control";

const slowWords = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

test("while a reply runs: Ctrl+Enter steers, Enter queues, Cancel removes; the steer shows where the model read it", async ({
  page,
  request,
}) => {
  await resetFake(request);
  await enqueueReplies(request, [
    {
      kind: "tools",
      // About 9 s of the first step: the person steers, queues and cancels while it streams.
      text: slowWords(60),
      chunkDelayMs: 150,
      calls: [{ id: "call_q", name: "TaskList", arguments: {} }],
    },
    { text: `Steered. ${slowWords(10)}`, chunkDelayMs: 40 },
    { text: "The queued one, answered." },
  ]);
  const chat = new ChatPage(page, FAKE_APP_URL);
  await chat.gotoNewChat();
  await chat.send("measure the room");
  await expect(chat.stopButton).toBeVisible();
  const keys = page.getByTestId("composer-keys");
  await expect(keys).toContainText("Enter queues");
  await expect(keys).toContainText("Ctrl+Enter steers");

  const queued = page.getByTestId("queued-message");
  await chat.input.fill("use metres, not feet");
  await chat.input.press("Control+Enter");
  await expect(chat.input).toHaveValue("");
  await expect(queued.filter({ hasText: "use metres" })).toContainText("Steer · after this step");

  await chat.input.fill("then sum it up");
  await chat.input.press("Enter");
  await expect(queued.filter({ hasText: "then sum it up" })).toContainText("Queued · after the reply");
  await chat.input.fill("drop me");
  await chat.input.press("Enter");
  const dropped = queued.filter({ hasText: "drop me" });
  await expect(dropped).toBeVisible();

  // Cancel, from the keyboard: focus moves to the button by Tab from the message before it.
  const cancel = page.getByRole("button", { name: "Cancel queued message: drop me" });
  await dropped.getByRole("button", { name: /^Edit queued message: drop me/ }).focus();
  await page.keyboard.press("Tab");
  await expect(cancel).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dropped).toHaveCount(0);

  // With text in the box the Steer and Queue buttons show beside Stop: the whole view, axe-clean.
  await chat.input.fill("a draft");
  await expect(page.getByRole("button", { name: "Steer now (Ctrl+Enter)" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Queue (Enter)" })).toBeVisible();
  await expectAxeClean(page, "the composer while a reply runs, with queued messages");
  await chat.input.fill("");

  // The steer enters the reply after its tool row, as the person's bubble; the queued message becomes the next turn.
  const steer = page.getByTestId("message-steer");
  await expect(steer).toHaveText(/use metres, not feet/, { timeout: 20_000 });
  const reply = page.getByTestId("message-assistant").filter({ has: steer });
  const order = await reply.evaluate((el) =>
    [...el.querySelectorAll('[data-testid="tool-row"], [data-testid="message-steer"]')].map((n) =>
      n.getAttribute("data-testid"),
    ),
  );
  expect(order).toEqual(["tool-row", "message-steer"]);
  await expect(chat.lastUser()).toHaveText("then sum it up", { timeout: 20_000 });
  await expect(chat.lastAssistant()).toContainText("The queued one, answered.", { timeout: 20_000 });
  await chat.waitForReplyDone();
  await expect(queued).toHaveCount(0);

  const calls = await chatRequests(request);
  expect(calls).toHaveLength(3);
  const users = (i: number) =>
    (calls[i]!.body as { messages: Array<{ role: string; content: unknown }> }).messages
      .filter((m) => m.role === "user" && !JSON.stringify(m.content).includes("<system-reminder>"))
      .map((m) => JSON.stringify(m.content));
  expect(users(1).at(-1)).toContain("use metres, not feet");
  expect(users(2).at(-1)).toContain("then sum it up");
  expect(JSON.stringify(calls.map((c) => c.body))).not.toContain("drop me");
});
