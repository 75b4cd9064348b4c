// Layout and chrome: the phone layout (drawer instead of sidebar, no sideways scrolling), the theme switch and
// the model badge.
import { expect, type Page, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

const PHONE = { width: 375, height: 740 };

async function expectNoHorizontalOverflow(page: Page, width: number): Promise<void> {
  const sizes = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const list = document.querySelector<HTMLElement>('[data-testid="message-list"]');
    return {
      document: root.scrollWidth,
      messageList: list ? list.scrollWidth - list.clientWidth : 0,
    };
  });
  expect(sizes.document, "document.scrollingElement.scrollWidth").toBeLessThanOrEqual(width);
  expect(sizes.messageList, "sideways scrolling inside the transcript").toBeLessThanOrEqual(0);
}

test.describe("on a phone (375×740)", () => {
  test.use({ viewport: PHONE });

  test("hides the sidebar, opens the list in a drawer, and keeps the composer usable without sideways scrolling", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    await chat.gotoNewChat();

    // No sidebar; the list lives behind the menu button.
    await expect(page.getByRole("navigation", { name: "Conversations" })).toBeHidden();
    await expect(chat.menuButton).toBeVisible();
    await expect(chat.drawer).toHaveCount(0);
    await expectNoHorizontalOverflow(page, PHONE.width);

    // The composer is entirely on screen and works.
    await expect(chat.input).toBeInViewport({ ratio: 1 });
    await expect(chat.sendButton).toBeInViewport({ ratio: 1 });
    await chat.send("hello");
    await chat.waitForReplyDone();
    await expect(chat.lastAssistant()).toContainText("Hintline demo model");
    await expect(chat.input).toBeInViewport({ ratio: 1 });
    await expect(chat.sendButton).toBeInViewport({ ratio: 1 });
    await expectNoHorizontalOverflow(page, PHONE.width);

    // A long unbroken word must wrap, not widen the page.
    await chat.send(`Look: ${"x".repeat(150)}`);
    await chat.waitForReplyDone();
    await expectNoHorizontalOverflow(page, PHONE.width);
    await expect(chat.input).toBeInViewport({ ratio: 1 });

    // The drawer shows the conversation list with this conversation in it.
    const id = await chat.conversationId();
    await chat.menuButton.click();
    await expect(chat.drawer).toBeVisible();
    await expect(chat.drawer).toBeInViewport();
    const list = chat.drawer.getByTestId("conversation-list");
    await expect(list).toBeVisible();
    await expect(list.locator(`[data-testid="conversation-item"][data-conversation-id="${id}"]`)).toBeVisible();
    await expect(chat.drawer.getByTestId("new-chat")).toBeVisible();
    await expectNoHorizontalOverflow(page, PHONE.width);

    // The backdrop closes it.
    await page.getByTestId("drawer-backdrop").click({ position: { x: PHONE.width - 10, y: PHONE.height / 2 } });
    await expect(chat.drawer).toHaveCount(0);

    // Following a conversation from the drawer opens it and closes the drawer.
    await chat.menuButton.click();
    await chat.drawer.locator(`[data-conversation-id="${id}"]`).getByRole("link").click();
    await expect(chat.drawer).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`/c/${id}$`));
    await expect(chat.lastUser()).toContainText("Look:");
  });
});

test.describe("theme", () => {
  test("the toggle switches html[data-theme] between light and dark and the choice survives a reload", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    const html = page.locator("html");
    await chat.gotoNewChat();
    // Playwright emulates a light colour scheme, so the first switch goes to dark.
    await expect(chat.themeToggle).toHaveAttribute("aria-label", "Switch to dark theme");

    await chat.themeToggle.click();
    await expect(html).toHaveAttribute("data-theme", "dark");
    await expect(chat.themeToggle).toHaveAttribute("aria-label", "Switch to light theme");
    await chat.reload();
    await expect(html).toHaveAttribute("data-theme", "dark");
    await expect(chat.themeToggle).toHaveAttribute("aria-label", "Switch to light theme");

    await chat.themeToggle.click();
    await expect(html).toHaveAttribute("data-theme", "light");
    await expect(chat.themeToggle).toHaveAttribute("aria-label", "Switch to dark theme");
    await chat.reload();
    await expect(html).toHaveAttribute("data-theme", "light");

    // The page really changes colour, not just the attribute.
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await chat.themeToggle.click();
    await expect(html).toHaveAttribute("data-theme", "dark");
    await expect.poll(background).not.toBe(light);
  });

  test.describe("with a dark system preference", () => {
    test.use({ colorScheme: "dark" });

    test("starts dark and the first switch goes to light", async ({ page }) => {
      const chat = new ChatPage(page);
      await chat.gotoNewChat();
      await expect(chat.themeToggle).toHaveAttribute("aria-label", "Switch to light theme");
      await chat.themeToggle.click();
      await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
      await chat.reload();
      await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    });
  });
});

test("the model badge shows the demo model and its context window", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await expect(chat.modelBadge).toBeVisible();
  await expect(chat.modelBadge).toContainText("Demo");
  await expect(chat.modelBadge).toContainText("hintline-demo");
  await expect(chat.modelBadge).toContainText("8k");
  await expect(chat.modelBadge).toHaveAttribute("title", /8,192 tokens/);
});
