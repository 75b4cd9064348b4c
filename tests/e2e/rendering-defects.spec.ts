// Rendering defects a newcomer met (issue 30, item 6): a compression summary that showed escaped tags as `&lt;…&gt;`,
// a workspace delete that asked "cannot be undone" and then refused, and an import that ignored the browser's zone (and,
// issue 47, the workspace the person was in).
import { writeFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { CompressionChip } from "./pages/compression-chip";
import { WorkspacePage } from "./pages/workspace-page";

const uniqueTag = () => Math.random().toString(36).slice(2, 8);

test("the compression summary shows the tags it quotes as written, never as &lt;…&gt;", async ({ page }) => {
  test.setTimeout(120_000);
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.ask("the tag <current-time> is reserved for the harness");
  const id = await chat.conversationId();
  expect(
    (
      await page.request.patch(`/api/conversations/${id}`, { data: { settings: { context: { contextWindow: 3000 } } } })
    ).status(),
  ).toBe(200);
  for (const text of ["write 150 words about rivers", "write 150 words about lakes", "write 100 words about hills"])
    await chat.ask(text);
  const compact = await page.request.post(`/api/conversations/${id}/compact`);
  expect(((await compact.json()) as { compressed: boolean }).compressed).toBe(true);
  await chat.reload();

  const chip = new CompressionChip(page);
  await chip.open();
  const summary = chip.root.getByTestId("compression-summary");
  // The summariser quotes the time hint it read (escaped in its transcript, so that no text can forge a hint).
  await expect(summary).toContainText("<current-time>");
  await expect(summary).not.toContainText("&lt;");
  await expect(summary).not.toContainText("&gt;");
});

test("deleting a workspace that still has conversations says why first and never asks to confirm", async ({ page }) => {
  const chat = new ChatPage(page);
  const ws = new WorkspacePage(page);
  const name = `Busy ${uniqueTag()}`;
  await chat.gotoNewChat();
  const id = await ws.create(name);
  await chat.ask("hello");
  const conversation = await chat.conversationId();

  await ws.switcher.getByTestId("workspace-delete").click();
  const note = ws.switcher.getByTestId("workspace-delete-blocked");
  await expect(note).toHaveText(
    `The workspace “${name}” still has 1 conversation. Delete it first; then the workspace can be deleted.`,
  );
  await expect(ws.switcher.getByTestId("workspace-confirm-delete")).toHaveCount(0);
  await expect(ws.switcher.getByText("cannot be undone")).toHaveCount(0);
  expect((await page.request.get(`/api/workspaces/${id}`)).status()).toBe(200);

  // Once the conversation is gone the same button asks, and deletes.
  await chat.delete();
  // The dialog closes as the DELETE is sent; on a loaded machine the click below could ask before it is stored.
  await expect.poll(async () => (await page.request.get(`/api/conversations/${conversation}`)).status()).toBe(404);
  await ws.switcher.getByTestId("workspace-delete").click();
  await expect(ws.switcher.getByTestId("workspace-confirm-delete")).toContainText("This cannot be undone.");
  await ws.switcher.getByTestId("workspace-delete-yes").click();
  await expect(ws.select.locator("option:checked")).toHaveText("default");
  expect((await page.request.get(`/api/workspaces/${id}`)).status()).toBe(404);
});

test.describe("in Tokyo", () => {
  test.use({ timezoneId: "Asia/Tokyo" });

  test("an imported conversation takes the importing browser's time zone, not UTC, and the workspace the person is in", async ({
    page,
  }, testInfo) => {
    const chat = new ChatPage(page);
    const ws = new WorkspacePage(page);
    await chat.gotoNewChat();
    const name = `Imports ${uniqueTag()}`;
    const workspaceId = await ws.create(name);
    const file = testInfo.outputPath("import.json");
    const message = (id: string, role: string, text: string) => ({
      id,
      role,
      parts: [{ type: "text", text }],
      createdAt: "2026-01-01T00:00:00.000Z",
    });
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        conversation: {
          title: `Zone ${uniqueTag()}`,
          settings: {},
          tasks: [],
          messages: [message("u1", "user", "hi"), message("a1", "assistant", "hello")],
        },
      }),
    );
    const choosing = page.waitForEvent("filechooser");
    await page.getByTestId("import-button").filter({ visible: true }).click();
    await (await choosing).setFiles(file);
    await expect(chat.userMessages).toHaveText(["hi"]);
    // The copy is in the workspace the person was in, and the sidebar stays there (it followed the copy to default).
    const copy = await chat.conversationId();
    expect(
      ((await (await page.request.get(`/api/conversations/${copy}`)).json()) as { workspaceId: string }).workspaceId,
    ).toBe(workspaceId);
    await expect(ws.select.locator("option:checked")).toHaveText(name);
    await expect(chat.conversationItem(copy)).toBeVisible();
    const drawer = await chat.openAdvancedSettings();
    await expect(drawer.getByTestId("setting-injection.timezone")).toHaveValue("Asia/Tokyo");
  });
});
