// A long conversation in the browser: 2,000 imported messages open at their end with only the rows near the viewport
// in the DOM, the first message is reachable by scrolling up, and a new reply still streams in and stays in view.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

const COUNT = 2_000;

function seed(prefix: string) {
  return Array.from({ length: COUNT }, (_, i) =>
    i % 2 === 0
      ? { id: `${prefix}-${i}`, role: "user", parts: [{ type: "text", text: `Note ${i}: the river bends east here.` }] }
      : { id: `${prefix}-${i}`, role: "assistant", parts: [{ type: "text", text: `Noted ${i}, it bends east.` }] },
  );
}

test("a 2,000-message conversation opens at its end, scrolls to its start, and still streams a reply", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const prefix = `long-${Date.now().toString(36)}`;
  const messages = seed(prefix);
  const imported = await page.request.post("/api/conversations/import", {
    data: { version: 1, conversation: { id: prefix, title: "Long river notes", messages } },
  });
  expect(imported.status()).toBe(201);
  const { id } = (await imported.json()) as { id: string };

  const chat = new ChatPage(page);
  await chat.gotoConversation(id);
  const first = page.locator(`[data-message-id="${prefix}-0"]`);
  const last = page.locator(`[data-message-id="${prefix}-${COUNT - 1}"]`);
  await expect(last).toBeInViewport();
  await expect(first).toHaveCount(0);
  const rendered = await page.locator("[data-message-id]").count();
  expect(rendered, "only the rows near the viewport are in the DOM").toBeLessThan(100);
  expect(rendered).toBeGreaterThan(3);

  // Scrolling to the top (rows are measured on the way, so the top may take a few tries) reaches the first message.
  await expect
    .poll(
      async () => {
        await chat.messageList.evaluate((el) => {
          el.scrollTop = 0;
        });
        return first.count();
      },
      { intervals: [100, 200, 300] },
    )
    .toBe(1);
  await expect(first).toBeInViewport();
  await expect(first).toHaveText(/Note 0: the river bends east here\./);
  await expect(last).toHaveCount(0);

  // A new message brings the reader back to the end, and the reply streams in view.
  // (Not chat.send: it counts the person's messages in the DOM, which a virtualised list does not hold all of.)
  await chat.input.fill("write 120 words about rivers");
  await chat.input.press("Enter");
  await expect(chat.lastUser()).toHaveText("write 120 words about rivers");
  await expect(chat.lastUser()).toBeInViewport();
  const reply = chat.lastAssistant();
  await expect(reply).toHaveAttribute("data-status", "streaming");
  await expect(reply).toBeInViewport();
  await chat.waitForReplyDone();
  await expect(reply).toHaveAttribute("data-status", "complete");
  const box = await reply.boundingBox();
  const list = await chat.messageList.boundingBox();
  expect(box && list && box.y + box.height <= list.y + list.height + 2, "the reply's end is in view").toBe(true);
  expect(await page.locator("[data-message-id]").count()).toBeLessThan(100);
});

test("a hint chip at the end of a long conversation expands in place", async ({ page }) => {
  const prefix = `chip-${Date.now().toString(36)}`;
  const messages = seed(prefix).slice(0, 200);
  const hintText = Array.from({ length: 12 }, (_, i) => `Line ${i}: the reminder text the model received.`).join("\n");
  messages[messages.length - 1] = {
    id: `${prefix}-199`,
    role: "assistant",
    parts: [
      {
        type: "data-hint",
        id: "h1",
        data: {
          source: { label: "System", sublabel: "Runtime State" },
          fields: {},
          text: hintText,
          createdAt: "2026-12-01T10:00:00.000Z",
        },
      },
      { type: "text", text: "Noted, it bends east." },
    ] as never,
  };
  const imported = await page.request.post("/api/conversations/import", {
    data: { version: 1, conversation: { id: prefix, title: "Chip", messages } },
  });
  expect(imported.status()).toBe(201);
  const chat = new ChatPage(page);
  await chat.gotoConversation(((await imported.json()) as { id: string }).id);
  const chip = chat.lastAssistant().getByTestId("hint-chip");
  await expect(chip).toBeInViewport();
  const button = chip.getByRole("button").first();
  const before = (await button.boundingBox())!.y;
  await button.click();
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await expect(chip).toContainText("Line 11: the reminder text");
  await page.waitForTimeout(300);
  expect(Math.abs((await button.boundingBox())!.y - before), "the chip stays where it was clicked").toBeLessThan(2);
});
