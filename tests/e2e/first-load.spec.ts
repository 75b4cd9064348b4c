// The first load carries the chat, not the closed drawers: the settings drawer's code (with the settings schema and
// zod's full API) and the inspector's arrive when they are opened — by click or keyboard, focus moving in and back —
// and a file input exists only while the file picker is open. The chat reads its replies with its own stream reader
// (lib/stores/ui-message-stream.ts): no zod and none of the AI SDK's runtime on a conversation's first load.
import { expect, type Page, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

/**
 * Strings only zod (an issue code; a schema kind, as its JSON Schema converter names it) and the AI SDK's runtime (its
 * errors' marker, its API call error) hold. On the tree before the chat had its own stream reader, all four were there.
 */
const RUNTIME_MARKERS = ["invalid_union", "ZodObject", "vercel.ai.error", "AI_APICallError"];

const scriptsLoaded = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((e) => (e as PerformanceResourceTiming).initiatorType === "script" || /\.js(\?|$)/.test(e.name))
      .map((e) => e.name),
  );

test("the settings drawer and the inspector load their code when opened, by keyboard too", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.ask("hello");
  await chat.reload();
  await page.waitForLoadState("networkidle");
  const first = await scriptsLoaded(page);
  expect(first.length).toBeGreaterThan(0);
  for (const url of first) {
    const source = await (await page.request.get(url)).text();
    for (const marker of RUNTIME_MARKERS) expect(source.includes(marker), `${marker} in ${url}`).toBe(false);
  }
  await expect(page.getByTestId("attach-input")).toHaveCount(0);

  // Settings, opened with the keyboard: new code arrives, focus moves into the drawer, Esc brings it back.
  const openSettings = page.getByTestId("open-settings");
  await openSettings.focus();
  await page.keyboard.press("Enter");
  const settings = page.getByTestId("settings-drawer");
  await expect(settings).toBeVisible();
  await expect(settings.getByTestId("setting-prompt.instructions")).toBeVisible();
  const afterSettings = await scriptsLoaded(page);
  expect(afterSettings.filter((name) => !first.includes(name)).length).toBeGreaterThan(0);
  await expect
    .poll(() => page.evaluate(() => !!document.activeElement?.closest('[data-testid="settings-drawer"]')))
    .toBe(true);
  await page.keyboard.press("Escape");
  await expect(settings).toBeHidden();
  await expect(openSettings).toBeFocused();
  // A second open uses the code already loaded, which validates as you type with the server's rules.
  await openSettings.click();
  await settings.getByTestId("settings-advanced-toggle").click();
  await settings.getByTestId("setting-injection.timezone").fill("Mars/Olympus");
  await expect(settings.getByTestId("error-injection.timezone")).toHaveText("is not a known IANA timezone");
  await expect(settings.getByTestId("settings-save")).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(settings).toBeHidden();

  // The inspector: its code too arrives on the first open.
  await page.getByTestId("open-inspector").click();
  const inspector = page.getByTestId("inspector");
  await expect(inspector).toBeVisible();
  await expect(inspector.getByTestId("inspector-section").first()).toBeVisible();
  const afterInspector = await scriptsLoaded(page);
  expect(afterInspector.filter((name) => !afterSettings.includes(name)).length).toBeGreaterThan(0);
  await page.keyboard.press("Escape");
  await expect(inspector).toBeHidden();
  await expect(page.getByTestId("open-inspector")).toBeFocused();

  // The file picker's input is made when the paperclip is pressed, and gone once files are chosen.
  const choosing = page.waitForEvent("filechooser");
  await chat.attachButton.click();
  await expect(page.getByTestId("attach-input")).toHaveCount(1);
  await (await choosing).setFiles({ name: "note.txt", mimeType: "text/plain", buffer: Buffer.from("a note") });
  await expect(page.getByTestId("attachment-chips")).toContainText("note.txt");
  await expect(page.getByTestId("attach-input")).toHaveCount(0);
});

test("a drawer whose code cannot be fetched says so in words, and opens on the next try", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.ask("hello");
  await chat.reload();
  await page.waitForLoadState("networkidle");
  // The server stops answering for code (as when it was stopped or redeployed).
  await page.route("**/_next/static/chunks/**", (route) => route.abort());
  for (const [button, what] of [
    ["open-settings", "The settings could not be loaded"],
    ["open-inspector", "The inspector could not be loaded"],
  ] as const) {
    await page.getByTestId(button).click();
    await expect(page.getByRole("status").filter({ hasText: what })).toBeVisible();
  }
  await expect(page.getByTestId("settings-drawer")).toHaveCount(0);
  await expect(page.getByTestId("inspector")).toHaveCount(0);
  await page.unroute("**/_next/static/chunks/**");
  await page.getByTestId("open-settings").click();
  await expect(page.getByTestId("settings-drawer")).toBeVisible();
  await page.keyboard.press("Escape");
  await page.getByTestId("open-inspector").click();
  await expect(page.getByTestId("inspector")).toBeVisible();
});
