// The layout at 1024 px (issue 30, item 3; issue 47, item 7): the transcript gets at least 560 px by default — below
// 1280 px the side panel is a drawer over the transcript (its header button or Ctrl+. opens it; Escape or a click
// beside it closes it, focus goes in and comes back) —; the conversation list and, on a wide screen, the side panel fold
// away (a button or a shortcut, remembered on this device); the plan opens in a roomy editor; settings and theme have
// icons that cannot be taken for each other.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectAxeClean } from "./support/axe";

test.use({ viewport: { width: 1024, height: 768 } });

const widthOf = async (page: import("@playwright/test").Page, testId: string) =>
  (await page.getByTestId(testId).boundingBox())?.width ?? 0;

test("at 1024 px the transcript gets 560 px and the side panel opens over it: Escape or a click beside it closes it", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.ask("add tasks: pack the boxes; book a van");
  const sidebar = page.getByTestId("sidebar");
  const panel = page.getByTestId("side-panel");
  const drawer = page.getByTestId("panel-drawer");
  const opener = page.getByTestId("open-panel");
  await expect(sidebar).toBeVisible();
  await expect(panel).toBeHidden();
  expect(await widthOf(page, "message-list")).toBeGreaterThanOrEqual(560);

  // The header button opens the panel over the transcript (which keeps its width), focus inside it.
  await opener.click();
  await expect(drawer).toBeVisible();
  await expect(opener).toHaveAttribute("aria-expanded", "true");
  await expect(drawer.getByTestId("task-item")).toHaveCount(2);
  expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  expect(await widthOf(page, "message-list")).toBeGreaterThanOrEqual(560);
  await expectAxeClean(page, "side panel over the transcript at 1024 px");
  // Escape closes it and gives focus back to the button.
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(opener).toBeFocused();
  // Ctrl+. opens it too; a click beside it, on the transcript, closes it.
  await page.keyboard.press("Control+.");
  await expect(drawer).toBeVisible();
  await page.mouse.click(500, 400);
  await expect(drawer).toBeHidden();
  await expect(chat.input).toBeVisible();

  // 1440 px is as before: list 288 px, panel 320 px beside the transcript.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(panel).toBeVisible();
  expect(await widthOf(page, "sidebar")).toBe(288);
  expect(await widthOf(page, "side-panel")).toBe(320);
  expect(await widthOf(page, "message-list")).toBeGreaterThanOrEqual(800);
  // 390 px: both in drawers, the transcript the whole width.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(sidebar).toBeHidden();
  await expect(panel).toBeHidden();
  expect(await widthOf(page, "message-list")).toBeGreaterThanOrEqual(380);
  await opener.click();
  await expect(drawer).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
});

test("the conversation list and the side panel fold away by button or shortcut, remembered after a reload", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.ask("hello");
  const sidebar = page.getByTestId("sidebar");
  const panel = page.getByTestId("side-panel");

  // The list folds with its button, and comes back with the shortcut.
  await page.getByTestId("toggle-sidebar").click();
  await expect(sidebar).toBeHidden();
  await expect(page.getByTestId("toggle-sidebar")).toHaveAttribute("aria-expanded", "false");
  expect(await widthOf(page, "message-list")).toBeGreaterThanOrEqual(900);
  await page.keyboard.press("Control+Shift+S");
  await expect(sidebar).toBeVisible();
  await page.keyboard.press("Control+Shift+S");
  await chat.reload();
  await expect(sidebar).toBeHidden();
  await page.getByTestId("toggle-sidebar").click();
  await chat.reload();
  await expect(sidebar).toBeVisible();

  // On a wide screen the panel is a column that folds (Ctrl+. or its button), remembered too.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(panel).toBeVisible();
  await page.keyboard.press("Control+.");
  await expect(panel).toBeHidden();
  await chat.reload();
  await expect(panel).toBeHidden();
  await page.getByTestId("open-panel").click();
  await expect(panel).toBeVisible();
  await chat.reload();
  await expect(panel).toBeVisible();

  // The shortcuts list names both.
  await page.keyboard.press("Control+/");
  const help = page.getByTestId("shortcuts-dialog");
  await expect(help).toContainText("Show or hide the conversation list");
  await expect(help).toContainText("Show or hide the side panel");
});

test("the plan opens in a roomy editor, not a small box in the panel", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.input.press("Alt+Shift+P");
  await chat.ask("plan a trip");
  await page.getByTestId("open-panel").click();
  await chat.planPanel.getByTestId("plan-edit").click();
  const dialog = page.getByTestId("plan-editor-dialog");
  await expect(dialog).toBeVisible();
  const editor = dialog.getByTestId("plan-editor");
  await expect(editor).toBeFocused();
  const box = await editor.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(600);
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(360);
  await editor.fill(`${await editor.inputValue()}\n- Pack the bags`);
  await dialog.getByTestId("plan-save").click();
  await expect(dialog).toBeHidden();
  await expect(chat.planContent).toContainText("Pack the bags");
  await expect(chat.planPanel.getByTestId("plan-version")).toContainText("v2 · you");
});

test("settings and theme have distinct icons", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.ask("hello");
  await page.setViewportSize({ width: 1440, height: 900 });
  const settings = page.getByTestId("open-settings").locator("svg");
  const theme = chat.themeToggle.locator("svg");
  await expect(settings).toHaveAttribute("data-icon", "sliders");
  await expect(theme).toHaveAttribute("data-icon", /^(sun|moon)$/);
});
