// Memory that outlives a compression, in the browser on the demo model: after "Compress now" the chip lists the
// durable facts the compression kept in the workspace's memory; Undo removes one (gone from the memory, the chip says
// so), the other stays, shown in the settings view as kept from the person's words; the workspace switch turns it off.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { CompressionChip } from "./pages/compression-chip";
import { WorkspacePage } from "./pages/workspace-page";

type Entry = { id: string; text: string; author: string };

test("the compression chip lists the facts it remembered, Undo removes one, and the workspace can switch it off", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const chat = new ChatPage(page);
  const ws = new WorkspacePage(page);
  const tag = Date.now().toString(36);
  await chat.gotoNewChat();
  const workspaceId = await ws.create(`Durable ${tag}`);
  await chat.send("hello");
  await chat.waitForReplyDone();
  const id = await chat.conversationId();
  expect(
    (
      await page.request.patch(`/api/conversations/${id}`, { data: { settings: { context: { contextWindow: 6000 } } } })
    ).status(),
  ).toBe(200);
  for (const text of [
    "I prefer metric units.",
    "My editor is Helix.",
    "write 150 words about rivers",
    "write 150 words about lakes",
    "write 100 words about hills",
  ]) {
    await chat.send(text);
    await chat.waitForReplyDone({ timeout: 30_000 });
  }
  const compact = await page.request.post(`/api/conversations/${id}/compact`);
  expect(((await compact.json()) as { compressed: boolean }).compressed).toBe(true);
  await chat.reload();

  // One compression: "Compress now" (the window is large enough that nothing compressed on its own before).
  await expect(page.getByTestId("compression-chip")).toHaveCount(1);
  const chip = new CompressionChip(page);
  await expect(chip.toggle).toContainText("2 remembered");
  await chip.open();
  await expect(chip.memory).toContainText("Remembered in the workspace · 2 durable facts");
  await expect(chip.facts).toHaveText([/Prefers metric units/, /Their editor is Helix/]);

  const memory = async () =>
    (await (await page.request.get(`/api/workspaces/${workspaceId}/memory`)).json()) as Entry[];
  expect((await memory()).map((e) => [e.text, e.author])).toEqual([
    ["Prefers metric units", "system"],
    ["Their editor is Helix", "system"],
  ]);
  await chip.undo("Their editor is Helix");
  expect((await memory()).map((e) => e.text)).toEqual(["Prefers metric units"]);
  await expect(chip.fact("Prefers metric units").getByTestId("compression-memory-undo")).toBeVisible();

  // The settings view shows who kept it, and the switch turns it off (and stays off).
  await ws.gotoSettings(workspaceId);
  await expect(ws.memoryEntry("Prefers metric units").getByTestId("memory-author")).toHaveText("kept from your words");
  await expect(ws.memoryFromCompression).toBeChecked();
  await ws.memoryFromCompression.uncheck();
  await expect(ws.memoryFromCompression).not.toBeChecked();
  await page.reload();
  await expect(ws.memoryFromCompression).not.toBeChecked();
  const settings = (await (await page.request.get(`/api/workspaces/${workspaceId}`)).json()) as { settings: unknown };
  expect(settings.settings).toEqual({ memory: { fromCompression: false } });
});
