// Tasks in the browser with the demo model: the agent's task calls fill the panel while the reply is still
// streaming; the person edits the list in the panel; the agent hears of it on its next step.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectAxeClean } from "./support/axe";

test.describe("tasks", () => {
  test("the demo's task calls appear live; a panel edit reaches the next reply as a hint", async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    const panel = page.getByTestId("task-panel").filter({ visible: true });
    await expect(panel.getByTestId("task-count")).toHaveText("0/0 done");

    // Watch, in the page, for the moment three tasks are listed while the reply is still streaming.
    const seenWhileStreaming = page.waitForFunction(
      () => {
        const items = document.querySelectorAll('[data-testid="side-panel"] [data-testid="task-item"]').length;
        const replies = document.querySelectorAll('[data-testid="message-assistant"]');
        return items === 3 && replies[replies.length - 1]?.getAttribute("data-status") === "streaming";
      },
      undefined,
      { polling: "raf", timeout: 20_000 },
    );
    await chat.send("add tasks: Draft the outline; Write the tests; Publish the post");
    await seenWhileStreaming;
    await chat.waitForReplyDone();

    await expect(panel.getByTestId("task-subject")).toHaveText([
      "#1Draft the outline",
      "#2Write the tests",
      "#3Publish the post",
    ]);
    const rows = chat.lastAssistant().getByTestId("tool-row");
    await expect(rows.getByTestId("tool-summary")).toHaveText([
      "Created task 1 · Draft the outline",
      "Created task 2 · Write the tests",
      "Created task 3 · Publish the post",
    ]);
    await rows.first().getByRole("button").click();
    await expect(rows.first().getByTestId("tool-detail")).toContainText(
      "Task (id=1) created successfully: Draft the outline",
    );

    // The agent starts task 2.
    await chat.send("start 2");
    await chat.waitForReplyDone();
    await expect(chat.lastAssistant().getByTestId("tool-summary")).toHaveText("Task 2 → In progress");
    await expect(panel.locator('[data-task-id="2"]')).toHaveAttribute("data-status", "in_progress");

    // The person marks task 1 completed in the panel (via the edit form's status select).
    await panel.locator('[data-task-id="1"]').getByTestId("task-subject").click();
    await panel.getByTestId("task-status-select").selectOption("completed");
    await expect(panel.locator('[data-task-id="1"]')).toHaveAttribute("data-status", "completed");
    await expect(panel.getByTestId("task-count")).toHaveText("1/3 done");

    // The next reply carries a tasks hint saying the user updated the list; the demo then lists its tasks.
    await chat.send("what's left?");
    await chat.waitForReplyDone();
    const reply = chat.lastAssistant();
    const chip = reply.getByTestId("hint-chip");
    await expect(chip).toHaveCount(1);
    await expect(chip.locator('[data-kind="tasks"]')).toContainText("Task update you changed the list, 2 open tasks");
    await chip.getByRole("button").click();
    await expect(chip.getByTestId("hint-text")).toContainText(
      "<tasks>The user updated the task list. You have 1 in-progress tasks and 1 pending tasks.",
    );
    await expect(reply.getByTestId("tool-summary")).toHaveText(["Listed tasks · 3"]);
    await expect(reply.getByTestId("message-text")).toContainText("#1 Draft the outline — done");

    // After a reload the panel and the transcript are as they were.
    await chat.reload();
    await expect(panel.getByTestId("task-count")).toHaveText("1/3 done");
    await expect(chat.lastAssistant().getByTestId("hint-chip")).toHaveCount(1);
  });

  test("the person adds, renames, reorders and deletes tasks in the panel", async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    await chat.send("hello");
    await chat.waitForReplyDone();
    const panel = page.getByTestId("task-panel").filter({ visible: true });
    const order = () =>
      panel.getByTestId("task-item").evaluateAll((els) => els.map((el) => el.getAttribute("data-task-id")));
    for (const subject of ["alpha", "beta", "gamma"]) {
      await panel.getByTestId("task-add-input").fill(subject);
      await panel.getByTestId("task-add-input").press("Enter");
      await expect(panel.getByTestId("task-item")).toHaveCount(["alpha", "beta", "gamma"].indexOf(subject) + 1);
    }
    await panel.locator('[data-task-id="2"]').getByTestId("task-subject").click();
    await panel.getByTestId("task-subject-input").fill("beta, renamed");
    await panel.getByTestId("task-subject-input").press("Enter");
    await expect(panel.locator('[data-task-id="2"]').getByTestId("task-subject")).toHaveText("#2beta, renamed");

    await panel.locator('[data-task-id="3"]').hover();
    await panel.locator('[data-task-id="3"]').getByTestId("task-up").click();
    await expect.poll(order).toEqual(["1", "3", "2"]);
    await panel.locator('[data-task-id="1"]').hover();
    await panel.locator('[data-task-id="1"]').getByTestId("task-delete").click();
    await expect.poll(order).toEqual(["3", "2"]);

    await chat.reload();
    await expect.poll(order).toEqual(["3", "2"]);
  });

  test("a tick completes or reopens a task in one click; the status menu names each status; a deleted task comes back with Undo; rows stay compact", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    await chat.send("hello");
    await chat.waitForReplyDone();
    const panel = chat.taskPanel;
    const order = () =>
      panel.getByTestId("task-item").evaluateAll((els) => els.map((el) => el.getAttribute("data-task-id")));
    for (const [i, subject] of ["alpha", "beta", "gamma"].entries()) {
      await chat.taskAddInput.fill(subject);
      await chat.taskAddInput.press("Enter");
      await expect(panel.getByTestId("task-item")).toHaveCount(i + 1);
    }
    // A one-line task takes one line: the row is at most 32 px tall.
    const box = await panel.locator('[data-task-id="1"]').boundingBox();
    expect(box?.height).toBeLessThanOrEqual(32);

    // One click on the tick completes a task, another reopens it; Space does the same from the keyboard.
    const alpha = panel.locator('[data-task-id="1"]');
    const tick = alpha.getByRole("checkbox", { name: "Done: alpha" });
    await expect(tick).toHaveAttribute("aria-checked", "false");
    await tick.click();
    await expect(alpha).toHaveAttribute("data-status", "completed");
    await expect(tick).toHaveAttribute("aria-checked", "true");
    await expect(panel.getByTestId("task-count")).toHaveText("1/3 done");
    await expect(page.getByRole("menu")).toHaveCount(0);
    await expectAxeClean(page, "a ticked task");
    await tick.click();
    await expect(alpha).toHaveAttribute("data-status", "pending");
    await expect(tick).toHaveAttribute("aria-checked", "false");
    await tick.focus();
    await page.keyboard.press("Space");
    await expect(alpha).toHaveAttribute("data-status", "completed");
    await page.keyboard.press("Space");
    await expect(alpha).toHaveAttribute("data-status", "pending");

    // The other statuses are in a menu beside it, by name, the current one checked.
    const beta = panel.locator('[data-task-id="2"]');
    await beta.getByRole("button", { name: "Status of “beta”: Pending" }).click();
    const menu = page.getByRole("menu");
    await expect(menu.getByRole("menuitemradio")).toHaveText([/^Pending/, /^In progress/, /^Completed/, /^Cancelled/]);
    await expect(menu.getByRole("menuitemradio", { name: "Pending" })).toHaveAttribute("aria-checked", "true");
    await menu.getByRole("menuitemradio", { name: "In progress" }).click();
    await expect(beta).toHaveAttribute("data-status", "in_progress");
    // By keyboard: the menu opens on Enter, arrows move, Enter picks.
    await panel.locator('[data-task-id="3"]').getByTestId("task-status").focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menu")).toBeVisible();
    // Down until "Cancelled" has the focus (the menu does not wrap; a key pressed before it took the focus is not lost).
    const cancelled = page.getByRole("menuitemradio", { name: "Cancelled" });
    await expect(async () => {
      await page.keyboard.press("ArrowDown");
      await expect(cancelled).toBeFocused({ timeout: 300 });
    }).toPass({ timeout: 10_000 });
    await page.keyboard.press("Enter");
    await expect(panel.locator('[data-task-id="3"]')).toHaveAttribute("data-status", "cancelled");
    // A tick completes a cancelled task too.
    await panel.getByRole("checkbox", { name: "Done: gamma" }).click();
    await expect(panel.locator('[data-task-id="3"]')).toHaveAttribute("data-status", "completed");

    // Delete beta, then undo: it is back in its place with its subject and status (under a new number).
    await beta.hover();
    await beta.getByTestId("task-delete").click();
    await expect.poll(order).toEqual(["1", "3"]);
    const undo = panel.getByTestId("task-undo");
    await expect(undo).toContainText("Task deleted · beta");
    await undo.getByRole("button", { name: "Undo" }).click();
    await expect(undo).toBeHidden();
    await expect.poll(order).toEqual(["1", "4", "3"]);
    await expect(panel.locator('[data-task-id="4"]')).toHaveAttribute("data-status", "in_progress");
    await expect(panel.locator('[data-task-id="4"]').getByTestId("task-subject")).toHaveText("#4beta");

    // Without Undo the offer goes after about 6 seconds and the task stays deleted.
    await panel.locator('[data-task-id="1"]').hover();
    await panel.locator('[data-task-id="1"]').getByTestId("task-delete").click();
    await expect(undo).toContainText("Task deleted · alpha");
    await expect(undo).toBeHidden({ timeout: 12_000 });
    await chat.reload();
    await expect.poll(order).toEqual(["4", "3"]);
    await expect(panel.getByTestId("task-subject")).toHaveText(["#4beta", "#3gamma"]);
  });
});
