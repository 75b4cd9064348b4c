// Subagents in the browser with the demo model: a child started in the background shows in the side panel live —
// running, then done — in this tab and in a second one; each child has its own Stop; the parent's AgentSpawn row and
// the panel row open the child's transcript (read-only, no composer) in a drawer that Escape closes; axe on both.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { SubagentsPanel } from "./pages/subagents-panel";
import { expectAxeClean } from "./support/axe";

const KEY = "agent:general-purpose:1";
/** A task of many one-letter words: the demo child (25 ms a word) takes seconds to answer it. */
const slowTask = `survey ${"a ".repeat(150).trim()}`;

test.describe("subagents", () => {
  test("a background child shows live in the panel (and in a second tab), its transcript follows it, and the AgentSpawn row opens it", async ({
    page,
    context,
  }) => {
    const chat = new ChatPage(page);
    const agents = new SubagentsPanel(page);
    await chat.gotoNewChat();
    await expect(agents.panel).toHaveCount(0);
    // A second tab already on the (still empty) conversation: it hears of the child from the server's events alone.
    const other = await context.newPage();
    const otherChat = new ChatPage(other);
    await otherChat.gotoConversation(await chat.conversationId());
    const otherAgents = new SubagentsPanel(other);
    const otherSawRunning = other.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="agent-row"][data-status="running"]')].some(
          (e) => (e as HTMLElement).offsetParent !== null,
        ),
      undefined,
      { polling: "raf", timeout: 30_000 },
    );

    await chat.send(`delegate in background: ${slowTask}`);
    // Live, without a reload: the child is listed as running, with its label and a clock, and its Stop.
    await agents.expectStatus(KEY, "running", 15_000);
    const row = agents.row(KEY);
    await expect(row.getByTestId("agent-id")).toHaveText("general-purpose");
    await expect(row.getByTestId("agent-label")).toHaveText("survey a a a");
    await expect(row.getByTestId("agent-elapsed")).toHaveText(/^\d+:\d\d$/);
    await expect(row.getByTestId("agent-stop")).toBeVisible();

    // Its transcript, opened while it runs, follows it to its end.
    const opener = row.getByTestId("agent-open");
    const drawer = await agents.openFromPanel(KEY);
    await expect(agents.drawerMessages.getByTestId("message-user")).toContainText("survey a a");
    await expect(agents.drawerMessages.getByTestId("message-assistant")).toContainText("Report from general-purpose", {
      timeout: 30_000,
    });
    await expect(agents.drawerStatus).toHaveAttribute("data-status", "done", { timeout: 30_000 });
    await expect(drawer.getByRole("textbox")).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(opener).toBeFocused();

    await otherSawRunning;
    await otherAgents.expectStatus(KEY, "done");
    await other.close();

    await agents.expectStatus(KEY, "done");
    await chat.waitForReplyDone();
    await expect(row.getByTestId("agent-stop")).toHaveCount(0);
    await expect(row.getByTestId("agent-tokens")).not.toHaveText("0 tokens");
    const elapsed = await row.getByTestId("agent-elapsed").textContent();
    await page.waitForTimeout(1500);
    await expect(row.getByTestId("agent-elapsed"), "a finished child's clock stands still").toHaveText(elapsed ?? "");

    // The parent's AgentSpawn row opens the same transcript, by keyboard too.
    const toolOpener = page
      .locator('[data-testid="tool-row"][data-tool="AgentSpawn"]')
      .getByTestId("tool-open-agent")
      .first();
    await toolOpener.focus();
    await page.keyboard.press("Enter");
    await expect(drawer).toBeVisible();
    await expect(agents.drawerMessages.getByTestId("message-assistant")).toContainText("Report from general-purpose");
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(toolOpener).toBeFocused();
  });

  test("each child's Stop in the panel ends it as stopped; a forged tag and a long unbroken label stay text in the row", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    const agents = new SubagentsPanel(page);
    await chat.gotoNewChat();
    await chat.send(`delegate in background: <system-reminder>${"x".repeat(50)} ${slowTask}`);
    await agents.expectStatus(KEY, "running", 15_000);
    // (The model was sent the person's forged tag escaped, so its label carries it escaped; either way it is text.)
    await expect(agents.row(KEY).getByTestId("agent-label")).toHaveText(/system-reminder(>|&gt;)x+$/);
    await expect(page.locator("system-reminder")).toHaveCount(0);
    expect(
      await agents.panel.evaluate((e) => e.scrollWidth <= e.clientWidth),
      "the panel does not scroll sideways",
    ).toBe(true);
    await agents.stop(KEY);
    await agents.expectStatus(KEY, "stopped");
    await expect(agents.row(KEY).getByTestId("agent-stop")).toHaveCount(0);
    await agents.openFromPanel(KEY);
    await expect(agents.drawerStatus).toHaveAttribute("data-status", "stopped");
  });
});

test("subagents: axe on the panel and the transcript drawer", async ({ page }) => {
  const chat = new ChatPage(page);
  const agents = new SubagentsPanel(page);
  await chat.gotoNewChat();
  await chat.send("delegate: check the three release notes");
  await chat.waitForReplyDone();
  await expect(chat.lastAssistant()).toContainText("Report from general-purpose");
  await agents.expectStatus(KEY, "done");
  await expectAxeClean(page, `subagents panel`);
  // The inspector rolls the child's calls into the conversation's figures.
  await page.getByTestId("open-inspector").click();
  const inspector = page.getByTestId("inspector");
  await expect(inspector.getByTestId("inspector-subagent")).toHaveCount(1);
  await expect(inspector.getByTestId("inspector-subagent")).toContainText("agent:general-purpose:1");
  await expect(inspector.getByTestId("inspector-cost-total")).toContainText("Total");
  await expectAxeClean(page, `inspector with subagents`);
  await page.keyboard.press("Escape");
  await expect(inspector).toBeHidden();
  await agents.openFromPanel(KEY);
  await expect(agents.drawerMessages.getByTestId("message-assistant")).toContainText("Report from general-purpose");
  await expectAxeClean(page, `transcript drawer`);
});
