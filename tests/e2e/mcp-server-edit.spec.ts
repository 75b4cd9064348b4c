// Editing a workspace's MCP server in /w/<id> (issue #27 §1): the form shows which headers are set but never their
// values, changes the URL, approval and timeout, replaces or removes the headers, refuses bad input with the API's
// reason (nothing changes), and is axe clean in both themes. Beside them, the workspace's state sources (issue 48): added,
// read now (the fields, or why it failed), edited, told in a conversation as a "State · NAME" chip, and listed in the
// inspector with what the next call would be told.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { type DriftServer, echoTool, startDriftServer } from "../support/mcp-drift-server";
import { expectAxeClean } from "./support/axe";

let drift: DriftServer;
test.beforeAll(async () => {
  drift = await startDriftServer([echoTool()]);
});
test.afterAll(async () => {
  await drift?.close();
});

type Listed = { name: string; url: string; headers: Record<string, string>; approval: string; timeoutSeconds: number };

test("a server's URL, headers, approval and timeout are edited in the workspace's settings", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const ws = (await (
    await request.post("/api/workspaces", { data: { name: `MCP edit ${Date.now().toString(36)}` } })
  ).json()) as { id: string };
  const gone = "http://127.0.0.1:9/mcp";
  expect(
    (
      await request.post(`/api/workspaces/${ws.id}/mcp-servers`, {
        data: { name: "tracker", url: gone, headers: { Authorization: "Bearer s3cret-token" } },
      })
    ).status(),
  ).toBe(201);
  const listed = async () =>
    ((await (await request.get(`/api/workspaces/${ws.id}/mcp-servers`)).json()) as Listed[]).find(
      (s) => s.name === "tracker",
    )!;

  await page.goto(`/w/${ws.id}`);
  const item = page.locator('[data-testid="mcp-item"][data-name="tracker"]');
  await item.getByTestId("mcp-item-edit").click();
  const form = item.getByTestId("mcp-edit-form");
  await expect(form).toContainText("Headers set: Authorization (values hidden)");
  await expect(page.getByText("s3cret-token")).toHaveCount(0);
  await expect(form.getByTestId("mcp-url-input")).toHaveValue(gone);
  await expectAxeClean(page, "the MCP server's edit form");

  // Bad input: the API's reason, and nothing changes.
  await form.getByTestId("mcp-url-input").fill("ftp://example.com/mcp");
  await form.getByTestId("mcp-save").click();
  await expect(form.getByTestId("mcp-error")).toContainText("url");
  await form.getByTestId("mcp-url-input").fill(drift.url);
  await form.getByTestId("mcp-timeout-input").fill("soon");
  await form.getByTestId("mcp-save").click();
  await expect(form.getByTestId("mcp-error")).toHaveText("The timeout must be a whole number of seconds.");
  expect(await listed()).toMatchObject({ url: gone, timeoutSeconds: 60, approval: "read-only-auto" });

  await form.getByTestId("mcp-timeout-input").fill("5");
  await form.getByTestId("mcp-approval-input").selectOption("ask");
  await form.getByTestId("mcp-headers-clear").check();
  await form.getByTestId("mcp-save").click();
  await expect(form).toHaveCount(0);
  await expect(item).toContainText(drift.url);
  expect(await listed()).toMatchObject({ url: drift.url, timeoutSeconds: 5, approval: "ask", headers: {} });
  await item.getByTestId("mcp-item-check").click();
  await expect(item.getByTestId("mcp-item-status")).toHaveAttribute("data-status", "connected");

  // New header lines replace them all; their values are never shown again.
  await item.getByTestId("mcp-item-edit").click();
  await expect(form).toContainText("No headers set.");
  await form.getByTestId("mcp-headers-input").fill("X-Team: blue-7f3a");
  await form.getByTestId("mcp-save").click();
  await expect(form).toHaveCount(0);
  await expect(item).toContainText("X-Team: ••••••••");
  await expect(page.getByText("blue-7f3a")).toHaveCount(0);
  expect(Object.keys((await listed()).headers)).toEqual(["X-Team"]);
});

test("state sources are added, read now, edited, told as a State chip and shown in the inspector", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const source = http.createServer((req, res) => {
    if (req.url === "/deploy") res.writeHead(200).end(JSON.stringify({ status: "green", version: "1.4.2" }));
    else res.writeHead(500).end("a body that is never shown");
  });
  await new Promise<void>((resolve) => source.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  try {
    const ws = (await (
      await request.post("/api/workspaces", { data: { name: `State ${Date.now().toString(36)}` } })
    ).json()) as { id: string };
    await page.goto(`/w/${ws.id}`);
    const section = page.getByTestId("state-section");
    await section.getByTestId("state-new").click();
    const form = section.getByTestId("state-form");
    await form.getByTestId("state-name-input").fill("deploy");
    await form.getByTestId("state-url-input").fill(`${base}/deploy`);
    await form.getByTestId("state-headers-input").fill("Authorization: Bearer st4te-s3cret");
    // Bad input: the API's reason naming the field, nothing stored.
    await form.getByTestId("state-refresh-input").fill("5");
    await form.getByTestId("state-save").click();
    await expect(form.getByTestId("state-error")).toContainText("refreshSeconds");
    expect(await (await request.get(`/api/workspaces/${ws.id}/state-sources`)).json()).toEqual([]);
    await form.getByTestId("state-refresh-input").fill("10");
    await form.getByTestId("state-save").click();
    const item = section.locator('[data-testid="state-item"][data-name="deploy"]');
    await expect(item).toContainText("headers Authorization");
    await expect(page.getByText("st4te-s3cret")).toHaveCount(0);
    await item.getByTestId("state-item-read").click();
    await expect(item.getByTestId("state-item-reading")).toContainText("status: green");

    await section.getByTestId("state-new").click();
    await form.getByTestId("state-name-input").fill("broken");
    await form.getByTestId("state-url-input").fill(`${base}/broken`);
    await form.getByTestId("state-save").click();
    const broken = section.locator('[data-testid="state-item"][data-name="broken"]');
    await broken.getByTestId("state-item-read").click();
    await expect(broken.getByTestId("state-item-reading")).toHaveText(
      "Cannot read it: it answered HTTP 500 Internal Server Error.",
    );
    await item.getByTestId("state-item-edit").click();
    const edit = item.getByTestId("state-edit-form");
    await expect(edit).toContainText("Headers set: Authorization (values hidden)");
    await expectAxeClean(page, "the workspace's state sources, read and edited");
    await edit.getByTestId("state-tokens-input").fill("300");
    await edit.getByTestId("state-save").click();
    await expect(item).toContainText("up to 300 tokens");

    const id = `state-e2e-${Date.now().toString(36)}`;
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
    const stateChip = (name: string) =>
      chat
        .lastAssistant()
        .getByTestId("hint-chip")
        .filter({ has: page.locator('[data-kind="state"]') })
        .filter({ hasText: `State · ${name}` });
    await expect(stateChip("deploy")).toHaveCount(1);
    await expect(stateChip("deploy")).toContainText("status green, version 1.4.2");
    await expect(stateChip("broken")).toContainText("unavailable");
    await page.getByTestId("open-inspector").click();
    const panel = page.getByTestId("inspector").getByTestId("inspector-state");
    await expect(panel.locator('[data-name="deploy"]')).toHaveAttribute("data-status", "read");
    await expect(panel.locator('[data-name="broken"]')).toHaveAttribute("data-status", "failing");
    await expect(panel.getByTestId("inspector-state-next-none")).toBeVisible();
    await expectAxeClean(page, "the inspector's state sources");
  } finally {
    await new Promise<void>((resolve) => source.close(() => resolve()));
  }
});
