// A running conversation whose workspace changes, in the browser with the demo model: the next reply carries one
// "Workspace" hint saying what changed (the system prompt keeps its frozen copy), the inspector lists the changes as
// pending in the system prompt, and both survive a reload.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test("a workspace change reaches a running conversation as a Workspace hint, pending in the inspector", async ({
  page,
  request,
}) => {
  const created = await request.post("/api/workspaces", {
    data: { name: `Trips ${Date.now().toString(36)}`, instructions: "Plan trips by train." },
  });
  expect(created.status()).toBe(201);
  const ws = (await created.json()) as { id: string };
  const id = `ws-hint-${Date.now().toString(36)}`;
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
  await expect(chat.assistantMessages).toHaveCount(1);
  await expect(chat.lastAssistant().getByTestId("hint-source").filter({ hasText: "Workspace" })).toHaveCount(0);

  // Someone changes the workspace while the conversation is open.
  expect(
    (await request.post(`/api/workspaces/${ws.id}/memory`, { data: { text: "Prefers window seats" } })).status(),
  ).toBe(201);
  const file = await request.put(`/api/workspaces/${ws.id}/knowledge/routes.md`, {
    data: "Berlin to Prague: 4h 20m",
    headers: { "content-type": "text/markdown" },
  });
  expect(file.status()).toBe(201);

  await chat.ask("anything new?");
  const chip = chat
    .lastAssistant()
    .getByTestId("hint-chip")
    .filter({ has: page.getByTestId("hint-source").filter({ hasText: "Workspace" }) });
  await expect(chip).toHaveCount(1);
  await chip.getByRole("button").click();
  const text = chip.getByTestId("hint-text");
  await expect(text).toContainText("- Memory entry added: Prefers window seats");
  await expect(text).toContainText("- Knowledge file added: routes.md (24 bytes; read it with KnowledgeRead).");

  await page.getByTestId("open-inspector").click();
  const pending = page.getByTestId("inspector").getByTestId("inspector-workspace-pending");
  await expect(pending).toContainText("Workspace changes pending in the system prompt (2)");
  await expect(pending).toContainText("Prefers window seats");

  // Told once: the next reply carries no new Workspace hint; the one told stays in place after a reload.
  await chat.reload();
  await chat.ask("thanks");
  await expect(chat.lastAssistant().getByTestId("hint-source").filter({ hasText: "Workspace" })).toHaveCount(0);
  await expect(page.getByTestId("hint-source").filter({ hasText: "Workspace" })).toHaveCount(1);
});
