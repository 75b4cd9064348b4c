// An MCP call's progress in the browser (issue #27 §5), with the demo model ("mcp <tool> <json>") and the reference
// server-everything over Streamable HTTP with a 2 s timeout: its trigger-long-running-operation runs 6 s reporting
// progress every second, so it outlives the timeout; the running row shows the server's progress next to the elapsed
// time (axe clean), and the call ends with its result.
import { expect, test } from "@playwright/test";
import { type McpHttpServer, startEverythingHttp } from "../support/mcp-reference";
import { ChatPage } from "./pages/chat-page";
import { expectAxeClean } from "./support/axe";

let everything: McpHttpServer;
test.beforeAll(async () => {
  everything = await startEverythingHttp();
});
test.afterAll(async () => {
  await everything?.stop();
});

test("a long MCP call that reports progress shows it in its row and outlives the server's timeout", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const ws = (await (
    await request.post("/api/workspaces", { data: { name: `Progress ${Date.now().toString(36)}` } })
  ).json()) as { id: string };
  expect(
    (
      await request.post(`/api/workspaces/${ws.id}/mcp-servers`, {
        data: { name: "everything", url: everything.url, timeoutSeconds: 2 },
      })
    ).status(),
  ).toBe(201);
  const id = `progress-e2e-${Date.now().toString(36)}`;
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
  await chat.send('mcp trigger-long-running-operation {"duration": 6, "steps": 6}');
  const running = page.getByTestId("tool-running");
  await expect(running.getByTestId("tool-progress")).toHaveText(/^[1-5] of 6$/, { timeout: 15_000 });
  await expect(running.getByTestId("tool-elapsed")).toHaveText(/Running · [1-9]\d* s/);
  await expectAxeClean(page, "a running MCP call with its progress");
  await chat.waitForReplyDone();
  await expect(page.getByTestId("tool-running")).toHaveCount(0);
  await expect(chat.lastAssistant().getByTestId("tool-row")).toHaveAttribute("data-state", "output-available");
});
