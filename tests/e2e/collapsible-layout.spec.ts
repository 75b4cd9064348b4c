// The layout at 1024 px (issue 30, item 3): the conversation list and the side panel fold away (a button or a
// shortcut, remembered on this device) so the transcript gets at least 640 px; the plan opens in a roomy editor;
// settings and theme have icons that cannot be taken for each other.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test.use({ viewport: { width: 1024, height: 768 } });

const widthOf = async (page: import("@playwright/test").Page, testId: string) =>
  (await page.getByTestId(testId).boundingBox())?.width ?? 0;

test("the conversation list and the side panel fold away by button or shortcut, remembered after a reload", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.ask("hello");
  const sidebar = page.getByTestId("sidebar");
  const panel = page.getByTestId("side-panel");
  await expect(sidebar).toBeVisible();
  await expect(panel).toBeVisible();
  expect(await widthOf(page, "message-list")).toBeLessThan(640);

  // The list folds with its button, and comes back with the shortcut.
  await page.getByTestId("toggle-sidebar").click();
  await expect(sidebar).toBeHidden();
  await expect(page.getByTestId("toggle-sidebar")).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.press("Control+Shift+S");
  await expect(sidebar).toBeVisible();

  // Either one folded leaves the transcript at least 640 px.
  await page.keyboard.press("Control+.");
  await expect(panel).toBeHidden();
  expect(await widthOf(page, "message-list")).toBeGreaterThanOrEqual(640);
  await page.keyboard.press("Control+Shift+S");
  await expect(sidebar).toBeHidden();
  expect(await widthOf(page, "message-list")).toBeGreaterThanOrEqual(900);

  // Remembered on this device.
  await chat.reload();
  await expect(sidebar).toBeHidden();
  await expect(panel).toBeHidden();
  await page.getByTestId("toggle-sidebar").click();
  await page.getByTestId("open-panel").click();
  await expect(sidebar).toBeVisible();
  await expect(panel).toBeVisible();
  await chat.reload();
  await expect(sidebar).toBeVisible();
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
