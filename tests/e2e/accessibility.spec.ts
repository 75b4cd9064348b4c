// Accessibility: axe-core on every view (0 critical, 0 serious; moderate ones are printed), its colours in both themes, and a
// keyboard-only journey through the chat (Tab order, the settings dialog, sending, the inspector).
import { type BrowserContext, expect, test } from "@playwright/test";
import { AUTH_APP_URL, DEMO_PORT } from "../../playwright.config";
import { ChatPage } from "./pages/chat-page";
import { OrganisePage } from "./pages/organise-page";
import { WorkspacePage } from "./pages/workspace-page";
import { expectAxeClean } from "./support/axe";
import { enqueueReplies, FAKE_APP_URL, resetFake } from "./support/openai-fake-control";

/** The theme a page starts in, by the cookie the server renders it from (expectAxeClean checks colours in the other). */
async function useTheme(
  context: BrowserContext,
  theme: "light" | "dark",
  url = `http://127.0.0.1:${DEMO_PORT}`,
): Promise<void> {
  await context.addCookies([{ name: "hintline_theme", value: theme, url }]);
}

/** A conversation with a hint chip, tool rows and tasks (the demo model creates tasks on request). */
async function conversationWithTasks(chat: ChatPage): Promise<void> {
  await chat.gotoNewChat();
  await chat.send("add tasks: Draft the outline; Write the tests; Publish the post");
  await chat.waitForReplyDone();
  // The first step's hint, and the open tasks told again after the agent created them.
  await expect(chat.lastAssistant().getByTestId("hint-chip")).toHaveCount(2);
  await expect(chat.lastAssistant().getByTestId("tool-row")).toHaveCount(3);
  await expect(chat.page.getByTestId("side-panel").getByTestId("task-item")).toHaveCount(3);
}

test.describe("axe, light theme, and colours in dark", () => {
  test.beforeEach(async ({ context }) => useTheme(context, "light"));

  test("new chat, a conversation with hints/tool rows/tasks, the settings dialog and the inspector", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await expectAxeClean(page, `new chat`);
    await page.getByRole("button", { name: "More" }).click();
    await expect(page.getByRole("menu")).toBeVisible();
    await expectAxeClean(page, `header menu`);
    await page.keyboard.press("Escape");

    await conversationWithTasks(chat);
    await chat.lastAssistant().getByTestId("hint-chip").getByRole("button").first().click();
    await chat.lastAssistant().getByTestId("tool-row").first().getByRole("button").first().click();
    await expectAxeClean(page, `conversation`);

    const settings = await chat.openSettings();
    await expect(settings).toBeVisible();
    await expectAxeClean(page, `settings dialog`);
    await page.keyboard.press("Escape");
    await expect(settings).toBeHidden();

    await page.getByTestId("open-inspector").click();
    const inspector = page.getByTestId("inspector");
    await expect(inspector.getByTestId("inspector-message").first()).toBeVisible();
    await expectAxeClean(page, `inspector`);
  });

  test("a reply with math, a table and a task list; the folded layout; the suggestions; the plan editor", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    const id = `axe-math-${Date.now().toString(36)}`;
    const text =
      "Inline $a^2+b^2=c^2$ and\n\n$$\\sum_{k=1}^n k = \\frac{n(n+1)}{2}$$\n\n| A | B |\n| - | - |\n| 1 | 2 |\n\n- [x] done\n- [ ] open";
    const messages = [
      { id: `${id}-u`, role: "user", parts: [{ type: "text", text: "math" }] },
      { id: `${id}-a`, role: "assistant", parts: [{ type: "text", text }] },
    ];
    const imported = await page.request.post("/api/conversations/import", {
      data: { version: 1, conversation: { id, title: "Math", messages } },
    });
    expect(imported.status()).toBe(201);
    await chat.gotoConversation(((await imported.json()) as { id: string }).id);
    await expect(chat.lastAssistant().locator(".katex")).toHaveCount(2);
    await expectAxeClean(page, `math, table and task list`);

    // At 1024 px the side panel is a drawer over the transcript (collapsible-layout.spec.ts checks it open).
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.getByTestId("toggle-sidebar").click();
    await expect(page.getByTestId("sidebar")).toBeHidden();
    await expect(page.getByTestId("side-panel")).toBeHidden();
    await expectAxeClean(page, `folded list, panel in its drawer`);
    await page.getByTestId("toggle-sidebar").click();

    await chat.gotoNewChat();
    await expectAxeClean(page, `suggestions`);
    await chat.input.press("Alt+Shift+P");
    await chat.ask("plan a picnic");
    await page.getByTestId("open-panel").click();
    await chat.planPanel.getByTestId("plan-edit").click();
    await expect(page.getByTestId("plan-editor-dialog")).toBeVisible();
    await expectAxeClean(page, `plan editor`);
    await page.keyboard.press("Escape");
  });

  test("the workspace settings page", async ({ page }) => {
    await page.goto("/w/default");
    await expect(page.getByTestId("workspace-settings")).toBeVisible();
    await expect(page.getByTestId("conversation-list").first().locator("li").first()).toBeAttached();
    await expectAxeClean(page, `workspace settings`);
  });

  test("the conversation list's row menu, its Pinned section, the Archived view and selecting to export", async ({
    page,
  }) => {
    const organise = new OrganisePage(page);
    const t = Date.now().toString(36);
    const pinned = await organise.importConversation(`axe-pin-${t}`, `Pinned ${t}`);
    const archived = await organise.importConversation(`axe-arch-${t}`, `Archived ${t}`);
    await organise.chat.gotoConversation(pinned);
    await organise.pin(pinned);
    await organise.openMenu(pinned);
    await expectAxeClean(page, `row menu open, a pinned section`);
    await page.keyboard.press("Escape");
    await organise.toggleArchived(archived);
    await organise.showArchived(true);
    await expect(organise.row(archived)).toBeVisible();
    await expectAxeClean(page, `archived view`);
    await organise.openMenu(archived);
    await expectAxeClean(page, `archived view, row menu open`);
    await page.keyboard.press("Escape");
    await organise.showArchived(false);
    await page.getByTestId("select-toggle").filter({ visible: true }).click();
    await organise.row(pinned).getByTestId("select-conversation").check();
    await expectAxeClean(page, `selecting conversations`);
    // A pinned conversation left behind would head other tests' lists.
    await organise.removeImported();
  });

  test("a provider error in the chat, an empty workspace's list and the task-status menu open", async ({
    page,
    context,
    request,
  }) => {
    // The chat's error state, on the app wired to the OpenAI fake (a call and its retry both fail).
    await useTheme(context, "light", FAKE_APP_URL);
    await resetFake(request);
    await enqueueReplies(request, [
      { kind: "http-error", status: 500 },
      { kind: "http-error", status: 500 },
    ]);
    const failing = new ChatPage(page, FAKE_APP_URL);
    await failing.gotoNewChat();
    await failing.send("an error, please");
    await expect(failing.chatError).toBeVisible();
    await expect(failing.retryButton).toBeVisible();
    await expectAxeClean(page, `chat error`);
    await resetFake(request);

    // A workspace without conversations: the list's empty state.
    const chat = new ChatPage(page);
    const name = `Empty ${Date.now().toString(36)}`;
    const created = await page.request.post("/api/workspaces", { data: { name } });
    expect(created.status()).toBe(201);
    const workspaceId = ((await created.json()) as { id: string }).id;
    await chat.gotoNewChat();
    await new WorkspacePage(page).choose(name);
    await expect(chat.conversationList.getByText("No conversations in this workspace yet.")).toBeVisible();
    await expectAxeClean(page, `empty workspace list`);
    await new WorkspacePage(page).choose("default");
    expect((await page.request.delete(`/api/workspaces/${workspaceId}`)).status()).toBe(204);

    // A task's status menu, open.
    await conversationWithTasks(chat);
    await page.getByTestId("side-panel").getByTestId("task-status").first().click();
    await expect(page.getByTestId("task-status-menu")).toBeVisible();
    await expectAxeClean(page, `task-status menu open`);
    await page.keyboard.press("Escape");
  });

  // Here the server renders the dark theme from the cookie, and the colours are checked again in light.
  test("the sign-in page", async ({ page, context }) => {
    await useTheme(context, "dark", AUTH_APP_URL);
    await page.goto(`${AUTH_APP_URL}/sign-in`);
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(page.getByTestId("sign-in-token")).toBeVisible();
    // The person signing in was given the token: the page says so in words, naming no variable (docs/configuration.md does).
    await expect(page.getByTestId("sign-in-note")).toHaveText(
      "Enter the access token that whoever runs this Hintline server gave you.",
    );
    await expectAxeClean(page, `sign-in`);
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 375, height: 740 } });

    test("the conversation drawer and the tasks drawer", async ({ page }) => {
      const chat = new ChatPage(page);
      await conversationWithTasks(chat);
      await expectAxeClean(page, `phone conversation`);
      await chat.menuButton.click();
      await expect(chat.drawer).toBeVisible();
      await expectAxeClean(page, `phone drawer`);
      await page.keyboard.press("Escape");
      await expect(chat.drawer).toBeHidden();
      await page.getByTestId("open-panel").click();
      await expect(page.getByTestId("panel-drawer")).toBeVisible();
      await expectAxeClean(page, `phone tasks drawer`);
    });
  });
});

test.describe("dialogs", () => {
  test("the settings, inspector and phone drawers are modal dialogs: focus moves in, stays in, Esc closes, focus returns", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    await chat.send("hello");
    await chat.waitForReplyDone();

    for (const [opener, name] of [
      ["open-settings", "Conversation settings"],
      ["open-inspector", "Next model input"],
    ] as const) {
      await page.getByTestId(opener).click();
      const dialog = page.getByRole("dialog", { name });
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAttribute("aria-modal", "true");
      // Focus is inside, and 40 Tabs never leave the dialog.
      for (let i = 0; i < 40; i++) {
        expect(
          await dialog.evaluate((el) => el.contains(document.activeElement)),
          `focus inside "${name}" after ${i} Tabs`,
        ).toBe(true);
        await page.keyboard.press("Tab");
      }
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId(opener)).toBeFocused();
    }

    await page.setViewportSize({ width: 375, height: 740 });
    await chat.menuButton.click();
    const drawer = page.getByRole("dialog", { name: "Conversations" });
    await expect(drawer).toBeVisible();
    await expect(drawer).toHaveAttribute("aria-modal", "true");
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(chat.menuButton).toBeFocused();

    // Left open while the window grows past the phone layout, the drawer closes rather than keep the page modal.
    await chat.menuButton.click();
    await expect(drawer).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(drawer).toHaveCount(0);
    await page.getByTestId("open-settings").click();
    await expect(page.getByRole("dialog", { name: "Conversation settings" })).toBeVisible();
  });

  test("the inspector's scroll boxes are reachable by keyboard and the list row controls are visible without hovering", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    await chat.send("hello");
    await chat.waitForReplyDone();
    const id = await chat.conversationId();
    // Rename and delete are visible without hover (opacity 1).
    const row = chat.conversationItem(id);
    await page.mouse.move(0, 0);
    for (const control of ["rename-button", "delete-button"]) {
      expect(
        Number(await row.getByTestId(control).evaluate((el) => getComputedStyle(el.parentElement!).opacity)),
      ).toBeGreaterThan(0.9);
    }
    await page.getByTestId("open-inspector").click();
    const box = page.getByTestId("inspector").getByTestId("inspector-message-text").first();
    await expect(box).toHaveAttribute("tabindex", "0");
    await expect(box).toHaveAttribute("aria-label", /.+/);
  });
});

test("keyboard only: Tab follows the screen, settings open and close, a message is sent, the inspector opens and closes", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.send("hello");
  await chat.waitForReplyDone();
  await chat.reload();

  // Tab through one whole round of the page (from leaving it at the end to leaving it again): every stop is visible,
  // and stops go region by region the way the screen reads: the header's bar of controls first, then the columns from
  // left to right (the conversation list; the transcript and below it the composer; the side panel).
  const region = (el: Element | null): string => {
    for (let node = el; node; node = node.parentElement) {
      const id = (node as HTMLElement).dataset?.testid;
      if (id === "sidebar" || id === "side-panel") return id;
      // The page's header (the panels' own headers are inside their region).
      if (node.tagName === "HEADER" && !node.closest('[data-testid="sidebar"], [data-testid="side-panel"]'))
        return "header";
      if (id === "message-list") return "transcript";
      if (node.tagName === "FORM" && node.querySelector('[data-testid="composer-input"]')) return "composer";
    }
    return "other";
  };
  const focusedStop = () =>
    page.evaluate(`(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const r = el.getBoundingClientRect();
      return { visible: r.width > 0 && r.height > 0, testid: el.dataset.testid ?? el.tagName, region: (${region.toString()})(el) };
    })()`) as Promise<{ visible: boolean; testid: string; region: string } | null>;
  for (let i = 0; i < 120 && (await focusedStop()); i++) await page.keyboard.press("Tab");
  expect(await focusedStop(), "Tab leaves the page at its end").toBeNull();
  const order: string[] = [];
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press("Tab");
    const stop = await focusedStop();
    if (!stop) break;
    expect(stop.visible, `Tab stop ${i} (${stop.testid}) is visible`).toBe(true);
    if (order.at(-1) !== stop.region) order.push(stop.region);
  }
  const expected = ["header", "sidebar", "transcript", "composer", "side-panel"];
  expect(order.filter((r) => expected.includes(r))).toEqual(expected);

  // From the message box (where the focus is on load), Tab goes on to the side panel beside it, and Shift+Tab back
  // through the composer's own buttons to the transcript above it; the header comes first in the next round, not behind
  // the whole conversation list.
  await chat.input.focus();
  await page.keyboard.press("Tab");
  expect((await focusedStop())?.region, "Tab from the message box").toBe("side-panel");
  await chat.input.focus();
  await page.keyboard.press("Shift+Tab");
  await expect(chat.modeToggle).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(page.getByTestId("attach-button")).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  expect((await focusedStop())?.region, "Shift+Tab out of the composer").toBe("transcript");
  await page
    .getByTestId("side-panel")
    .locator('button:not([disabled]), a[href], input, textarea, select, [tabindex="0"]')
    .last()
    .focus();
  await page.keyboard.press("Tab");
  expect(await focusedStop(), "Tab leaves the page after the side panel").toBeNull();
  await page.keyboard.press("Tab");
  expect((await focusedStop())?.region, "the next round begins with the header").toBe("header");

  // Settings with the keyboard: focus its button, Enter opens, Esc closes, focus returns to the button.
  await page.getByTestId("open-settings").focus();
  await page.keyboard.press("Enter");
  const settings = page.getByRole("dialog", { name: "Conversation settings" });
  await expect(settings).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(settings).toBeHidden();
  await expect(page.getByTestId("open-settings")).toBeFocused();

  // Send a message without the mouse: Tab until the composer has focus.
  // From the header the way goes through the conversation list and the transcript.
  for (let i = 0; i < 80 && !(await chat.input.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press("Tab");
  await expect(chat.input).toBeFocused();
  await page.keyboard.type("what time is it?");
  await page.keyboard.press("Enter");
  await expect(chat.userMessages).toHaveCount(2);
  await chat.waitForReplyDone();

  // The inspector: Tab on round to its button, Enter opens, Esc closes, focus returns.
  for (
    let i = 0;
    i < 80 && !(await page.getByTestId("open-inspector").evaluate((el) => el === document.activeElement));
    i++
  ) {
    await page.keyboard.press("Tab");
  }
  await expect(page.getByTestId("open-inspector")).toBeFocused();
  await page.keyboard.press("Enter");
  const inspector = page.getByRole("dialog", { name: "Next model input" });
  await expect(inspector).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(inspector).toBeHidden();
  await expect(page.getByTestId("open-inspector")).toBeFocused();
});
