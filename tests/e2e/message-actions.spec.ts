// The buttons under each message, visible without hovering: Copy on the person's messages and the replies,
// Regenerate on the last reply, and Continue after a reply that was stopped.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

type View = { messages: { id: string; role: string; parts: { type: string; text?: string }[]; metadata?: { status?: string } }[] };
const words = (text: string): string[] => text.trim().split(/\s+/).filter(Boolean);

test.describe("message actions", () => {
  test("Copy on the person's message and on the reply copies their text", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    await chat.ask("hello there");
    await page.mouse.move(0, 0);

    const userCopy = page.getByRole("button", { name: "Copy your message" });
    await expect(userCopy).toBeVisible();
    await userCopy.click();
    await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("hello there");

    const replyCopy = chat.lastAssistant().getByRole("button", { name: "Copy the reply's message" });
    await expect(replyCopy).toBeVisible();
    await replyCopy.click();
    await expect(chat.lastAssistant().getByTestId("copy-message")).toHaveText("Copied");
    const view = (await (await page.request.get(`/api/conversations/${await chat.conversationId()}`)).json()) as View;
    const stored = view.messages.at(-1)!.parts.filter((p) => p.type === "text").map((p) => p.text!.trim()).join("\n\n");
    expect(stored.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(stored);
  });

  test("Regenerate writes the last reply anew, in place, and only the last reply offers it", async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    await chat.ask("hello");
    await chat.ask("write 40 words about rivers");
    await expect(chat.assistantMessages.first().getByTestId("regenerate")).toHaveCount(0);
    const regenerate = chat.lastAssistant().getByRole("button", { name: "Regenerate this reply" });
    await expect(regenerate).toBeVisible();
    const id = await chat.conversationId();
    const before = (await (await page.request.get(`/api/conversations/${id}`)).json()) as View;
    const oldReplyId = before.messages.at(-1)!.id;

    await regenerate.click();
    await expect(chat.lastAssistant()).toHaveAttribute("data-status", "streaming");
    await chat.waitForReplyDone();
    await expect(chat.lastAssistant()).toHaveAttribute("data-status", "complete");
    expect(words(await chat.replyText())).toHaveLength(40);
    await expect(chat.userMessages).toHaveCount(2);
    await expect(chat.assistantMessages).toHaveCount(2);

    const after = (await (await page.request.get(`/api/conversations/${id}`)).json()) as View;
    expect(after.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(after.messages.at(-1)!.id).not.toBe(oldReplyId);
    expect(after.messages.at(-2)!.id).toBe(before.messages.at(-2)!.id);
  });

  test("Continue after a stopped reply asks for the rest, and a complete reply does not offer it", async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    await chat.ask("hello");
    await expect(chat.lastAssistant().getByTestId("continue")).toHaveCount(0);

    await chat.send("write 2000 words about rivers");
    await expect.poll(async () => words(await chat.replyText()).length).toBeGreaterThanOrEqual(5);
    await chat.stopButton.click();
    const stopped = chat.lastAssistant();
    await expect(stopped).toHaveAttribute("data-status", "incomplete");
    const cont = stopped.getByRole("button", { name: "Continue this reply from where it stopped" });
    await expect(cont).toBeVisible();

    await cont.click();
    await expect(chat.lastUser()).toHaveText("Continue from where you stopped.");
    await chat.waitForReplyDone();
    await expect(chat.lastAssistant()).toHaveAttribute("data-status", "complete");
    await expect(chat.userMessages).toHaveCount(3);
    await expect(chat.assistantMessages).toHaveCount(3);
    // The stopped reply is kept as it was, and no longer offers Continue (it is not the last reply).
    await expect(chat.assistantMessages.nth(1)).toHaveAttribute("data-status", "incomplete");
    await expect(page.getByTestId("continue")).toHaveCount(0);
  });
});
