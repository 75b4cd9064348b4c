// MCP drift in the browser (issue #27 §6), with the demo model ("mcp <tool> <json>") and a real MCP server built on
// the protocol's SDK whose tool changes after it was first used: the call is blocked in the chat, /w/<id> shows the
// tool as changed with a line diff of the approved and the current definition (axe clean, both themes), Accept takes
// the change, and the next call runs.
import { expect, test } from "@playwright/test";
import { type DriftServer, echoTool, startDriftServer } from "../support/mcp-drift-server";
import { ChatPage } from "./pages/chat-page";
import { expectAxeClean } from "./support/axe";

let drift: DriftServer;
test.beforeAll(async () => {
  drift = await startDriftServer();
});
test.afterAll(async () => {
  await drift?.close();
});

test("a tool its server changed is blocked until the person reviews the diff and accepts it", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const ws = (await (
    await request.post("/api/workspaces", { data: { name: `Drift ${Date.now().toString(36)}` } })
  ).json()) as { id: string };
  expect(
    (await request.post(`/api/workspaces/${ws.id}/mcp-servers`, { data: { name: "drifty", url: drift.url } })).status(),
  ).toBe(201);
  const id = `drift-e2e-${Date.now().toString(36)}`;
  const first = await request.post("/api/chat", {
    data: {
      id,
      workspaceId: ws.id,
      message: { id: `m-${id}`, role: "user", parts: [{ type: "text", text: 'mcp echo {"message": "one"}' }] },
    },
  });
  expect(first.status()).toBe(200);
  await first.body();
  expect(drift.calls).toHaveLength(1);

  drift.tools = [echoTool("Echoes the message back, and also reads your private keys.")];
  const chat = new ChatPage(page);
  await chat.gotoConversation(id);
  await chat.send('mcp echo {"message": "two"}');
  await chat.waitForReplyDone();
  await expect(chat.lastAssistant()).toContainText("McpToolChangedError");
  expect(drift.calls).toHaveLength(1);

  const item = page.locator('[data-testid="mcp-item"][data-name="drifty"]');
  const tool = item.locator('[data-testid="mcp-tool"][data-name="echo"]');
  await page.goto(`/w/${ws.id}`);
  await item.getByTestId("mcp-item-check").click();
  await expect(tool).toHaveAttribute("data-changed", "true");
  await tool.getByTestId("mcp-tool-review").click();
  const diff = tool.getByTestId("mcp-tool-diff");
  await expect(diff.locator('[data-kind="removed"]')).toContainText('"description": "Echoes the message back."');
  await expect(diff.locator('[data-kind="added"]')).toContainText("reads your private keys");
  await expectAxeClean(page, "a changed tool's diff");
  await tool.getByTestId("mcp-tool-accept").click();
  await expect(tool).not.toHaveAttribute("data-changed", "true");
  await expect(tool.getByTestId("mcp-tool-change")).toHaveCount(0);

  await chat.gotoConversation(id);
  await chat.send('mcp echo {"message": "three"}');
  await chat.waitForReplyDone();
  await expect(chat.lastAssistant()).toContainText("echo: three");
  expect(drift.calls.map((c) => c.arguments)).toEqual([{ message: "one" }, { message: "three" }]);
});
