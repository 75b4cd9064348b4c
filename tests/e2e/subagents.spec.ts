// Subagents in the browser with the demo model: a child started in the background shows in the side panel live —
// running (its tokens counting), then done — in this tab and in a second one, under its whole label; its end is said
// in words above the composer when it happens, with no message sent; each child has its own Stop; the parent's
// AgentSpawn row and the panel row open the child's transcript (read-only, no composer) in a drawer that Escape
// closes, where the child is seen reading the workspace's notes with its tools; axe on both.
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
    // The label is the task, whole up to AgentSpawn's 80 characters: cut by CSS on screen, whole on hover.
    const label = row.getByTestId("agent-label");
    await expect(label).toHaveText(/^survey( a){30,}…$/);
    await expect(label).toHaveAttribute("title", (await label.textContent()) ?? "");
    expect(await label.evaluate((e) => getComputedStyle(e).textOverflow)).toBe("ellipsis");
    await expect(row.getByTestId("agent-elapsed")).toHaveText(/^\d+:\d\d$/);
    await expect(row.getByTestId("agent-stop")).toBeVisible();
    // Its tokens count while it runs (it looked at the workspace's knowledge first: a step before its answer).
    await expect(row.getByTestId("agent-tokens")).not.toHaveText("0 tokens", { timeout: 10_000 });
    await expect(row.getByTestId("agent-last-tool")).toContainText(/Knowledge(List|Read)/);
    await expect(row).toHaveAttribute("data-status", "running");
    await expect(page.getByTestId("agent-end-notice")).toHaveCount(0);

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
    // Its end is said when it happens, by its label, with no message of the person's: and it opens the transcript.
    const notice = page.getByTestId("agent-end-notice");
    await expect(notice).toHaveCount(1);
    await expect(notice).toContainText(/^“survey( a)+…” finished/);
    await expect(chat.userMessages).toHaveCount(1);
    await notice.getByTestId("agent-end-open").click();
    await expect(drawer).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await notice.getByTestId("agent-end-dismiss").click();
    await expect(notice).toHaveCount(0);
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
    await expect(agents.row(KEY).getByTestId("agent-label")).toHaveText(/system-reminder(>|&gt;)x+( survey( a)*)?…$/);
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

test("subagents: the demo's own suggestion reads the notes, visibly; axe on the panel, the notice and the drawer", async ({
  page,
  request,
}) => {
  // A workspace of its own with two notes, so that no other spec's workspace changes.
  const created = await request.post("/api/workspaces", { data: { name: `Notes ${Date.now().toString(36)}` } });
  expect(created.status()).toBe(201);
  const ws = (await created.json()) as { id: string };
  for (const [path, text] of [
    ["notes.md", "# Moving day\nPack the kitchen first."],
    ["trip/notes.md", "Book the van for Saturday."],
  ]) {
    const put = await request.put(`/api/workspaces/${ws.id}/knowledge/${path}`, {
      data: text,
      headers: { "content-type": "text/markdown" },
    });
    expect(put.status()).toBe(201);
  }
  const id = `sa-notes-${Date.now().toString(36)}`;
  const first = await request.post("/api/chat", {
    data: { id, workspaceId: ws.id, message: { id: `m-${id}`, role: "user", parts: [{ type: "text", text: "hi" }] } },
  });
  expect(first.status()).toBe(200);
  await first.body();
  const chat = new ChatPage(page);
  const agents = new SubagentsPanel(page);
  await chat.gotoConversation(id);
  await chat.send("delegate: summarise the notes");
  await chat.waitForReplyDone();
  await expect(chat.lastAssistant()).toContainText("Report from general-purpose");
  await expect(chat.lastAssistant()).toContainText("read 2 of the workspace's 2 knowledge files");
  await expect(chat.lastAssistant()).toContainText("Moving day");
  await agents.expectStatus(KEY, "done");
  await expect(page.getByTestId("agent-end-notice")).toHaveText(/“summarise the notes” finished/);
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
  // The child read them with its tools, in its transcript for the person to see.
  const tools = agents.drawerMessages.getByTestId("tool-row");
  await expect(tools.and(page.locator('[data-tool="KnowledgeList"]'))).toHaveCount(1);
  await expect(tools.and(page.locator('[data-tool="KnowledgeRead"]'))).toHaveCount(2);
  await expectAxeClean(page, `transcript drawer`);
});
