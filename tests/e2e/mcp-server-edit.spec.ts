// Editing a workspace's MCP server in /w/<id> (issue #27 §1): the form shows which headers are set but never their
// values, changes the URL, approval and timeout, replaces or removes the headers, refuses bad input with the API's
// reason (nothing changes), and is axe clean in both themes.
import { expect, test } from "@playwright/test";
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
