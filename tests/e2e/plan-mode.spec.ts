// Plan mode in the browser with the demo model: switch to plan with Alt+Shift+P (Shift+Tab stays the browser's, moving
// the focus back), the agent's plan appears in the panel
// while the reply is still streaming, a write is refused while planning, the person edits the plan, "Approve and
// build" switches to build and the agent turns the plan's steps into tasks — with the banner and the Mode chips.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test("plan → live plan in the panel → person edits → Approve and build → tasks from the plan", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await expect(chat.modeToggle).toHaveAttribute("data-mode", "build");
  await expect(chat.planBanner).toBeHidden();
  await expect(page.getByText("Alt+Shift+P plan/build mode")).toBeVisible();
  await expect(chat.modeToggle).toHaveAttribute("aria-keyshortcuts", "Alt+Shift+P");
  await expect(chat.modeToggle).toHaveAttribute("title", "Build mode: switch to plan (Alt+Shift+P)");

  // Shift+Tab in the composer is the browser's: the focus moves back to the control before the box, the mode stays.
  await chat.input.focus();
  await chat.input.press("Shift+Tab");
  await expect(chat.modeToggle).toBeFocused();
  await expect(chat.modeToggle).toHaveAttribute("data-mode", "build");
  await expect(chat.planBanner).toBeHidden();
  // The button switches (and back), and so does Alt+Shift+P, in the box or not (the conversation is created in plan
  // mode with the first message).
  await chat.modeToggle.click();
  await expect(chat.modeToggle).toHaveAttribute("data-mode", "plan");
  await chat.modeToggle.click();
  await expect(chat.modeToggle).toHaveAttribute("data-mode", "build");
  await page.keyboard.press("Alt+Shift+P");
  await expect(chat.modeToggle).toHaveAttribute("data-mode", "plan");
  await chat.input.focus();
  await chat.input.press("Alt+Shift+P");
  await expect(chat.modeToggle).toHaveAttribute("data-mode", "build");
  await chat.input.press("Alt+Shift+P");
  await expect(chat.modeToggle).toHaveAttribute("data-mode", "plan");
  await expect(chat.planBanner).toBeVisible();
  await expect(chat.planBanner).toContainText("or switch back with Alt+Shift+P");
  await expect(chat.input).toBeFocused();
  await expect(chat.input).toHaveValue("");

  const planWhileStreaming = page.waitForFunction(
    () => {
      const plan = document.querySelector('[data-testid="side-panel"] [data-testid="plan-content"]');
      const replies = document.querySelectorAll('[data-testid="message-assistant"]');
      return (
        !!plan?.textContent?.includes("Outline a blog post") &&
        replies[replies.length - 1]?.getAttribute("data-status") === "streaming"
      );
    },
    undefined,
    { polling: "raf", timeout: 20_000 },
  );
  await chat.send("plan a blog post");
  await planWhileStreaming;
  await chat.waitForReplyDone();
  const planned = chat.lastAssistant();
  await expect(planned.getByTestId("hint-chip").locator('[data-kind="mode"]')).toHaveText(/^Plan mode on$/);
  await expect(chat.planPanel.getByTestId("plan-version")).toContainText("v1 · agent");
  await expect(chat.planContent.locator("li")).toHaveText([
    "Outline a blog post",
    "Draft a blog post",
    "Review a blog post",
    "Publish a blog post",
  ]);
  expect(await chat.replyText(planned)).toContain("Approve and build");

  // A write while planning is refused: the agent says so and the task panel does not change.
  expect(await chat.ask("add tasks: sneak in a task")).toContain(
    "Plan mode is on (read-only), so I couldn't change the task list",
  );
  await expect(chat.taskPanel.getByTestId("task-count")).toHaveText("0/0 done");

  // The person edits the plan (in the editor dialog), then approves it from there.
  await chat.planPanel.getByTestId("plan-edit").click();
  const editorDialog = page.getByTestId("plan-editor-dialog");
  const editor = editorDialog.getByTestId("plan-editor");
  await editor.fill(`${await editor.inputValue()}\n- Share it with friends`);
  await editorDialog.getByTestId("plan-approve").click();
  await expect(editorDialog).toBeHidden();
  await expect(chat.modeToggle).toHaveAttribute("data-mode", "build");
  await expect(chat.planBanner).toBeHidden();
  await expect(chat.lastUser()).toHaveText("The plan is approved: build it.");
  await chat.waitForReplyDone();
  await expect(chat.lastAssistant().getByTestId("hint-chip").locator('[data-kind="mode"]')).toHaveText(
    /^Build mode: plan approved$/,
  );
  await expect(chat.taskPanel.getByTestId("task-subject")).toHaveText([
    "#1Outline a blog post",
    "#2Draft a blog post",
    "#3Review a blog post",
    "#4Publish a blog post",
    "#5Share it with friends",
  ]);
  // A task made from the plan says where it came from, not its subject again.
  await expect(chat.taskPanel.getByTestId("task-description")).toHaveText(
    [1, 2, 3, 4, 5].map((step) => `Step ${step} of 5 of the approved plan.`),
  );
  await expect(chat.planPanel.getByTestId("plan-version")).toContainText("v2 · you");
  await chat.planPanel.getByTestId("plan-history").locator("summary").click();
  await expect(chat.planPanel.getByTestId("plan-history-item")).toHaveCount(2);

  // After a reload everything is as it was: build mode, the edited plan, both chips.
  await chat.reload();
  await expect(chat.modeToggle).toHaveAttribute("data-mode", "build");
  await expect(chat.planContent).toContainText("Share it with friends");
  await expect(page.getByTestId("hint-chip").locator('[data-kind="mode"]')).toHaveText([
    /Plan mode on$/,
    /Build mode: plan approved$/,
  ]);
});
