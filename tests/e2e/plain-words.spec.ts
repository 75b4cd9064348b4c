// Words, not jargon (issue 30, item 5): what a person reads says what happened in plain words — no error type names
// (PlanModeError), no zod wording, no text meant for the model ("Call TaskList now…") — and the exact text the model
// got stays one click away. The demo model's lists are Markdown lists.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectAxeClean } from "./support/axe";

const MODEL_TEXT = /Call TaskList|created successfully|\[pending\]|\(id=\d+\)|Error:|What to do/;

test("the demo model answers task requests in words, its lists as lists, never repeating tool results", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.ask("add tasks: pack the boxes; book the van");
  await expect(chat.lastAssistant().locator(".prose-chat li")).toHaveText(["#1 pack the boxes", "#2 book the van"]);
  expect(await chat.replyText()).not.toMatch(MODEL_TEXT);

  const finished = await chat.ask("finish 1");
  expect(finished).toContain("Task #1 is now done.");
  expect(finished).not.toMatch(MODEL_TEXT);

  await chat.ask("what's left?");
  await expect(chat.lastAssistant().locator(".prose-chat li")).toHaveText([
    "#1 pack the boxes — done",
    "#2 book the van — pending",
  ]);
  expect(await chat.replyText()).not.toMatch(MODEL_TEXT);
});

test("a tool call refused in plan mode says so in words; the exact error is one click away", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.input.press("Alt+Shift+P");
  await expect(chat.modeToggle).toHaveAttribute("data-mode", "plan");
  await chat.ask("add tasks: paint the fence");
  const row = page.getByTestId("tool-row").filter({ visible: true }).first();
  await expect(row.getByTestId("tool-summary")).toHaveText("Create a task · not run: plan mode is read-only");
  await expect(page.getByTestId("message-list")).not.toContainText("PlanModeError");
  await row.getByRole("button").first().click();
  await expect(row.getByTestId("tool-detail")).toContainText("PlanModeError: PLAN MODE is on (read-only)");
});

test("a settings field with a wrong value says what is wrong in words, not in the validator's", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.ask("hello");
  const drawer = await chat.openAdvancedSettings();
  await drawer.getByTestId("setting-context.triggerRatio").fill("most");
  const error = drawer.getByTestId("error-context.triggerRatio");
  await expect(error).toContainText("must be a number");
  await expect(drawer).not.toContainText(/Invalid input|expected number|received string/);
});

test("the settings lead with what a person sets; the internals wait under Advanced; axe clean in both themes", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.ask("hello");
  let drawer = await chat.openSettings();
  const main = drawer.getByTestId("settings-main");
  await expect(main.locator("label")).toHaveText(["Instructions", "Model", "Temperature", "Longest reply"]);
  await expect(drawer.getByTestId("setting-model")).toHaveValue(/demo/);
  // Collapsed: no date-fns tokens, ratios or template placeholders in sight.
  await expect(drawer.getByTestId("settings-advanced")).toHaveCount(0);
  await expect(drawer.getByTestId("settings-advanced-toggle")).toHaveAttribute("aria-expanded", "false");
  await expect(drawer).not.toContainText(/date-fns|ratio|\{runtime_state\}/i);
  await expectAxeClean(page, "settings, what a person sets");

  await drawer.getByTestId("setting-sampling.temperature").fill("3");
  await expect(drawer.getByTestId("error-sampling.temperature")).toHaveText("must be from 0 to 2");
  await expect(drawer.getByTestId("settings-save")).toBeDisabled();
  await drawer.getByTestId("setting-sampling.temperature").fill("0.4");
  await drawer.getByTestId("setting-sampling.maxOutputTokens").fill("12.5");
  await expect(drawer.getByTestId("error-sampling.maxOutputTokens")).toHaveText("must be a whole number of tokens");
  await drawer.getByTestId("setting-sampling.maxOutputTokens").fill("500");
  await drawer.getByTestId("setting-prompt.instructions").fill("Answer briefly.");
  await chat.saveSettings(drawer);

  drawer = await chat.openSettings();
  await expect(drawer.getByTestId("setting-sampling.temperature")).toHaveValue("0.4");
  await expect(drawer.getByTestId("setting-sampling.maxOutputTokens")).toHaveValue("500");
  await expect(drawer.getByTestId("setting-prompt.instructions")).toHaveValue("Answer briefly.");
  // Emptied, a setting is cleared (the default again), not kept.
  await drawer.getByTestId("setting-sampling.temperature").fill("");
  await drawer.getByTestId("setting-prompt.instructions").fill("");
  await drawer.getByTestId("settings-advanced-toggle").click();
  await expect(drawer.getByTestId("settings-advanced")).toBeVisible();
  await expect(drawer.getByTestId("setting-injection.timeFormat")).toBeVisible();
  await expectAxeClean(page, "settings, Advanced open");
  await chat.saveSettings(drawer);
  drawer = await chat.openSettings();
  await expect(drawer.getByTestId("setting-sampling.temperature")).toHaveValue("");
  await expect(drawer.getByTestId("setting-prompt.instructions")).toHaveValue("");
  await expect(drawer.getByTestId("setting-sampling.maxOutputTokens")).toHaveValue("500");
});
