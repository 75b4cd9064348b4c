// MCP approvals in the browser with the demo model ("mcp <tool> <json>") and the reference server-everything over
// Streamable HTTP, added to a workspace with approval "ask": the waiting call is drawn as a card with the tool and its
// arguments; Approve runs it and the reply goes on with its result; Deny with a reason gives the model the reason.
import { expect, test } from "@playwright/test";
import { type McpHttpServer, startEverythingHttp } from "../support/mcp-reference";
import { ChatPage } from "./pages/chat-page";

let everything: McpHttpServer;
test.beforeAll(async () => {
  everything = await startEverythingHttp();
});
test.afterAll(async () => {
  await everything?.stop();
});

test("a call that waits is a card: Approve runs it, Deny gives the model the person's reason", async ({
  page,
  request,
}) => {
  // Two replies that each wait for the person, against a real MCP server, on a shared machine.
  test.setTimeout(120_000);
  const ws = (await (
    await request.post("/api/workspaces", { data: { name: `MCP ${Date.now().toString(36)}` } })
  ).json()) as { id: string };
  expect(
    (
      await request.post(`/api/workspaces/${ws.id}/mcp-servers`, {
        data: { name: "everything", url: everything.url, approval: "ask" },
      })
    ).status(),
  ).toBe(201);
  const id = `mcp-e2e-${Date.now().toString(36)}`;
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
  await chat.send('mcp echo {"message": "hi there"}');
  const card = page.getByTestId("approval-card");
  await expect(card).toBeVisible();
  // The person reads the tool · server; the model's exact name stays in the tooltip and the inspector.
  await expect(card.getByTestId("approval-tool")).toHaveText("echo · everything");
  await expect(card.getByTestId("approval-tool")).toHaveAttribute("title", "mcp__everything__echo");
  await expect(card.getByTestId("approval-input")).toContainText('"message": "hi there"');
  await card.getByTestId("approval-approve").click();
  await chat.waitForReplyDone();
  await expect(page.getByTestId("approval-card")).toHaveCount(0);
  await expect(chat.lastAssistant()).toContainText("Echo: hi there");
  const row = chat.lastAssistant().getByTestId("tool-row");
  await expect(row.getByTestId("tool-summary")).toHaveText("Called echo · everything");
  await expect(row.getByRole("button").first()).toHaveAttribute("title", "mcp__everything__echo");
  await expect(row).not.toContainText("mcp__");
  await page.getByTestId("open-inspector").click();
  await expect(page.getByTestId("inspector")).toContainText("→ mcp__everything__echo(");
  await page.getByRole("button", { name: "Close inspector" }).click();

  await chat.send('mcp echo {"message": "not this"}');
  await expect(page.getByTestId("approval-card")).toBeVisible();
  await page.getByTestId("approval-reason").fill("Not now, thanks");
  await page.getByTestId("approval-deny").click();
  await chat.waitForReplyDone();
  await expect(chat.lastAssistant()).toContainText("ApprovalDeniedError");
  await expect(chat.lastAssistant()).toContainText("Not now, thanks");
  await expect(chat.lastAssistant().getByTestId("tool-summary")).toHaveText(/^echo · everything · /);
});

test("a server is added in the workspace's settings: header value masked, status and tools shown, then removed", async ({
  page,
  request,
}) => {
  const ws = (await (
    await request.post("/api/workspaces", { data: { name: `MCP UI ${Date.now().toString(36)}` } })
  ).json()) as { id: string };
  await page.goto(`/w/${ws.id}`);
  const section = page.getByTestId("mcp-section");
  await expect(section.getByTestId("mcp-list")).toHaveAttribute("data-loaded", "true");
  await section.getByTestId("mcp-new").click();
  await section.getByTestId("mcp-name-input").fill("Not Kebab");
  await section.getByTestId("mcp-url-input").fill(everything.url);
  await section.getByTestId("mcp-save").click();
  await expect(section.getByTestId("mcp-error")).toContainText("kebab-case");
  await section.getByTestId("mcp-name-input").fill("everything");
  await section.getByTestId("mcp-headers-input").fill("Authorization: Bearer sup3r-secret");
  await section.getByTestId("mcp-save").click();
  const item = section.locator('[data-testid="mcp-item"][data-name="everything"]');
  await expect(item).toContainText("Authorization: ••••••••");
  await expect(page.getByText("sup3r-secret")).toHaveCount(0);
  await item.getByTestId("mcp-item-check").click();
  await expect(item.getByTestId("mcp-item-status")).toHaveAttribute("data-status", "connected");
  await expect(item.getByTestId("mcp-tool").filter({ hasText: "echo" }).first()).toContainText("read-only");
  // The box follows the stored value: it turns off once the PATCH is stored.
  await item.getByTestId("mcp-item-enabled").click();
  await expect(item.getByTestId("mcp-item-enabled")).not.toBeChecked();
  await item.getByTestId("mcp-item-delete").click();
  await expect(section.getByTestId("mcp-item")).toHaveCount(0);
});
