// A subagent's MCP call that waits for the person, in the browser, with the demo model ("delegate: mcp echo …") and
// the reference server-everything over Streamable HTTP with approval "ask": the child's call is shown in the parent —
// "Waiting for your approval" and the card under the child's row in the side panel, the same card under the parent's
// AgentSpawn row and in the child's transcript drawer. Approve on the AgentSpawn row answers it at the child's id, the
// child goes on and the parent's reply finishes with the echo; Deny with a reason in the drawer reaches the child; a
// grandchild's call shows under its parent's row and Approve there finishes the reply. Axe on the waiting state (panel,
// row and drawer) in both themes.
import { expect, type Page, test } from "@playwright/test";
import { type McpHttpServer, startEverythingHttp } from "../support/mcp-reference";
import { ChatPage } from "./pages/chat-page";
import { SubagentsPanel } from "./pages/subagents-panel";
import { expectAxeClean } from "./support/axe";

const KEY = "agent:general-purpose:1";

let everything: McpHttpServer;
test.beforeAll(async () => {
  everything = await startEverythingHttp();
});
test.afterAll(async () => {
  await everything?.stop();
});

/** A conversation in a new workspace whose MCP server asks before every call; the page on it. */
async function conversationWithAskingServer(
  page: Page,
  request: import("@playwright/test").APIRequestContext,
): Promise<ChatPage> {
  const ws = (await (
    await request.post("/api/workspaces", { data: { name: `Child MCP ${Date.now().toString(36)}` } })
  ).json()) as { id: string };
  expect(
    (
      await request.post(`/api/workspaces/${ws.id}/mcp-servers`, {
        data: { name: "everything", url: everything.url, approval: "ask" },
      })
    ).status(),
  ).toBe(201);
  const id = `subappr-${Date.now().toString(36)}`;
  const first = await request.post("/api/chat", {
    data: {
      id,
      workspaceId: ws.id,
      message: { id: `m-${id}`, role: "user", parts: [{ type: "text", text: "hello" }] },
    },
  });
  expect(first.status()).toBe(200);
  await first.body();
  const chat = new ChatPage(page);
  await chat.gotoConversation(id);
  return chat;
}

test.describe("a subagent's approvals", () => {
  test("the child's waiting call shows in the side panel and under the AgentSpawn row; Approve on the row finishes the reply", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const chat = await conversationWithAskingServer(page, request);
    const agents = new SubagentsPanel(page);
    await chat.send('delegate: mcp echo {"message": "hi from the child"}');
    // The side panel: the child's row says it waits, with the card.
    await expect(agents.waiting(KEY)).toHaveText("Waiting for your approval", { timeout: 30_000 });
    const panelCard = agents.approvalCard(KEY);
    await expect(panelCard.getByTestId("approval-tool")).toHaveText("echo · everything");
    await expect(panelCard.getByTestId("approval-input")).toContainText('"message": "hi from the child"');
    // The parent's transcript: the same card under the AgentSpawn row that waits (answered before its 30 s run out).
    const rowCard = agents.toolRowApprovalCard(chat.lastAssistant());
    await expect(rowCard.getByTestId("approval-input")).toContainText('"message": "hi from the child"');
    await rowCard.getByTestId("approval-approve").click();
    await chat.waitForReplyDone();
    await expect(chat.lastAssistant()).toContainText("(done) answered:");
    await expect(chat.lastAssistant()).toContainText("Echo: hi from the child");
    await agents.expectStatus(KEY, "done");
    await expect(agents.waiting(KEY)).toHaveCount(0);
    await expect(page.getByTestId("approval-card")).toHaveCount(0);
  });

  test("axe on the waiting state; Deny with a reason in the child's transcript drawer reaches the child", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const chat = await conversationWithAskingServer(page, request);
    const agents = new SubagentsPanel(page);
    await chat.send('delegate: mcp echo {"message": "not this one"}');
    await expect(agents.approvalCard(KEY)).toBeVisible({ timeout: 30_000 });
    await expectAxeClean(page, `waiting child: panel and AgentSpawn row`);
    const drawer = await agents.openFromPanel(KEY);
    const card = drawer.getByTestId("approval-card");
    await expect(card.getByTestId("approval-input")).toContainText("not this one");
    await expectAxeClean(page, `waiting child: transcript drawer`);
    // The drawer's card answers at the child's id (the page is the parent's).
    await card.getByTestId("approval-reason").fill("Not from a helper");
    await card.getByTestId("approval-deny").click();
    await expect(agents.drawerStatus).toHaveAttribute("data-status", "done", { timeout: 30_000 });
    await expect(agents.drawerMessages).toContainText("ApprovalDeniedError");
    await expect(agents.drawerMessages).toContainText("Not from a helper");
    await page.keyboard.press("Escape");
    await agents.expectStatus(KEY, "done");
    await expect(agents.waiting(KEY)).toHaveCount(0);
  });

  test("a grandchild's waiting call shows under its parent's row (asked by its own helper); Approve in the panel finishes the reply", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const chat = await conversationWithAskingServer(page, request);
    const agents = new SubagentsPanel(page);
    await chat.send('delegate: delegate: mcp echo {"message": "from two levels down"}');
    await expect(agents.waiting(KEY)).toBeVisible({ timeout: 30_000 });
    await expect(agents.row(KEY).getByTestId("agent-waiting-helper")).toContainText(`Asked by its own helper ${KEY}`);
    const card = agents.approvalCard(KEY);
    await expect(card.getByTestId("approval-input")).toContainText("from two levels down");
    await card.getByTestId("approval-approve").click();
    await chat.waitForReplyDone();
    await expect(chat.lastAssistant()).toContainText("Echo: from two levels down");
    await agents.expectStatus(KEY, "done");
    await expect(agents.waiting(KEY)).toHaveCount(0);
  });
});
