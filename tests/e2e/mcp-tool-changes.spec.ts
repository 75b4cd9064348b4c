// MCP tools that change under a running conversation, in the browser (issue #27 §3), with the demo model and real MCP
// servers built on the protocol's SDK: a server added to the workspace shows in the transcript as a Workspace chip
// ("MCP tools changed: server beta added") with "Use the new tools now" (axe clean, both themes); pressing it makes the list again,
// and the next message can call the new server's tool.
import { expect, test } from "@playwright/test";
import { type DriftServer, echoTool, startDriftServer } from "../support/mcp-drift-server";
import { ChatPage } from "./pages/chat-page";
import { expectAxeClean } from "./support/axe";

let alpha: DriftServer;
let beta: DriftServer;
test.beforeAll(async () => {
  alpha = await startDriftServer([echoTool()]);
  beta = await startDriftServer([{ ...echoTool("Echoes from beta."), name: "shout" }]);
});
test.afterAll(async () => {
  await alpha?.close();
  await beta?.close();
});

test("a server added mid-conversation is told as a chip, and Use the new tools now brings its tools in", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const ws = (await (
    await request.post("/api/workspaces", { data: { name: `Tools ${Date.now().toString(36)}` } })
  ).json()) as { id: string };
  expect(
    (await request.post(`/api/workspaces/${ws.id}/mcp-servers`, { data: { name: "alpha", url: alpha.url } })).status(),
  ).toBe(201);
  const id = `tools-e2e-${Date.now().toString(36)}`;
  const first = await request.post("/api/chat", {
    data: {
      id,
      workspaceId: ws.id,
      message: { id: `m-${id}`, role: "user", parts: [{ type: "text", text: "hello" }] },
    },
  });
  expect(first.status()).toBe(200);
  await first.body();

  expect(
    (await request.post(`/api/workspaces/${ws.id}/mcp-servers`, { data: { name: "beta", url: beta.url } })).status(),
  ).toBe(201);
  expect(
    ((await (await request.get(`/api/workspaces/${ws.id}/mcp-servers/beta`)).json()) as { status: string }).status,
  ).toBe("connected");

  const chat = new ChatPage(page);
  await chat.gotoConversation(id);
  await chat.send('mcp shout {"message": "too early"}');
  await chat.waitForReplyDone();
  // Not in this conversation's list yet: the model cannot call it.
  expect(beta.calls).toHaveLength(0);
  const chip = page.getByTestId("hint-chip").filter({ hasText: "MCP tools changed" });
  await expect(chip).toHaveCount(1);
  await expect(chip).toContainText("server beta added");
  const button = chip.getByTestId("use-new-tools-button");
  await expect(button).toHaveText("Use the new tools now");
  await chat.gotoConversation(id);
  await expect(button).toBeVisible();
  await expectAxeClean(page, "the MCP tools chip with Use the new tools now");
  await button.click();
  await expect(chip.getByTestId("use-new-tools-done")).toHaveText(
    "The next reply uses the tools as they are now (2 MCP tools).",
  );

  await chat.send('mcp shout {"message": "now"}');
  await chat.waitForReplyDone();
  await expect(chat.lastAssistant()).toContainText("echo: now");
  expect(beta.calls.map((c) => c.arguments)).toEqual([{ message: "now" }]);
});
