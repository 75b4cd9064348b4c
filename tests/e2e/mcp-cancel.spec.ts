// Cancel on one MCP call in the browser (issue #27 §5), with the demo model ("mcp <tool> <json>") and a real MCP server
// (the protocol's SDK) whose `wait` tool takes a minute: the running call's row shows how long it has run and a
// Cancel; Cancel stops that call (the server sees its client go) and the reply goes on to the end. The meter lists the
// server's tools' tokens.
import { expect, test } from "@playwright/test";
import { type DriftServer, startDriftServer, waitTool } from "../support/mcp-drift-server";
import { ChatPage } from "./pages/chat-page";
import { expectAxeClean } from "./support/axe";

let mcp: DriftServer;
test.beforeAll(async () => {
  mcp = await startDriftServer([waitTool()]);
});
test.afterAll(async () => {
  await mcp?.close();
});

test("a slow MCP call shows its elapsed time and is cancelled alone; the reply goes on", async ({ page, request }) => {
  test.setTimeout(120_000);
  const ws = (await (
    await request.post("/api/workspaces", { data: { name: `Slow ${Date.now().toString(36)}` } })
  ).json()) as { id: string };
  expect(
    (await request.post(`/api/workspaces/${ws.id}/mcp-servers`, { data: { name: "slow", url: mcp.url } })).status(),
  ).toBe(201);
  const id = `cancel-e2e-${Date.now().toString(36)}`;
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
  await chat.send('mcp wait {"ms": 60000}');
  const running = page.getByTestId("tool-running");
  await expect(running).toBeVisible();
  await expect(running.getByTestId("tool-elapsed")).toHaveText(/Running · [1-9]\d* s/);
  await expectAxeClean(page, "a running MCP call with Cancel");
  await running.getByTestId("tool-cancel").click();
  await chat.waitForReplyDone();
  await expect(page.getByTestId("tool-running")).toHaveCount(0);
  await expect(chat.lastAssistant().getByTestId("tool-row")).toHaveAttribute("data-state", "output-error");
  await expect(chat.lastAssistant()).toContainText(/cancelled/i);
  await expect.poll(() => mcp.aborted.length).toBe(1);

  // The meter counts the server's tools, as they are sent with every call.
  const meter = page.getByTestId("context-meter").filter({ visible: true });
  await meter.getByRole("button").first().click();
  await expect(meter.getByTestId("meter-mcp-tools")).toContainText(/of which MCP slow\s*[1-9]\d*/);
});
