// The buttons under each message, visible without hovering: Copy on the person's messages and the replies,
// Regenerate on the last reply (in other words; the earlier reply stays, as version ‹ 1/2 ›), and Continue after a reply that was
// stopped (the same reply grows; no message of the person's is added).
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectAxeClean } from "./support/axe";

type View = {
  messages: { id: string; role: string; parts: { type: string; text?: string }[]; metadata?: { status?: string } }[];
};
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
    const stored = view.messages
      .at(-1)!
      .parts.filter((p) => p.type === "text")
      .map((p) => p.text!.trim())
      .join("\n\n");
    expect(stored.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(stored);
  });

  test("Regenerate writes the last reply anew and keeps the earlier one as version 1/2, across a reload", async ({
    page,
  }) => {
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
    const oldText = await chat.replyText();
    await expect(page.getByTestId("branch-switcher")).toHaveCount(0);

    await regenerate.click();
    await expect(chat.lastAssistant()).toHaveAttribute("data-status", "streaming");
    await chat.waitForReplyDone();
    await expect(chat.lastAssistant()).toHaveAttribute("data-status", "complete");
    // Other words, as many: the demo model words each attempt anew (the same attempt, the same words).
    const newText = await chat.replyText();
    expect(words(newText)).toHaveLength(40);
    expect(newText).not.toBe(oldText);
    await expect(chat.userMessages).toHaveCount(2);
    await expect(chat.assistantMessages).toHaveCount(2);

    const after = (await (await page.request.get(`/api/conversations/${id}`)).json()) as View;
    expect(after.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    const newReplyId = after.messages.at(-1)!.id;
    expect(newReplyId).not.toBe(oldReplyId);
    expect(after.messages.at(-2)!.id).toBe(before.messages.at(-2)!.id);

    // ‹ 2/2 › under the new reply; back to the first version and forth again.
    const switcher = chat.lastAssistant().getByTestId("branch-switcher");
    await expect(switcher.getByTestId("branch-position")).toHaveText("2/2");
    await expect(switcher.getByTestId("branch-next")).toBeDisabled();
    await expectAxeClean(page, "message actions");
    await switcher.getByTestId("branch-previous").click();
    await expect(chat.lastAssistant()).toHaveAttribute("data-message-id", oldReplyId);
    await expect(chat.lastAssistant().getByTestId("branch-position")).toHaveText("1/2");
    expect(await chat.replyText()).toBe(oldText);
    await chat.lastAssistant().getByTestId("branch-next").click();
    await expect(chat.lastAssistant()).toHaveAttribute("data-message-id", newReplyId);
    await expect(chat.lastAssistant().getByTestId("branch-position")).toHaveText("2/2");
    await chat.lastAssistant().getByTestId("branch-previous").click();
    await expect(chat.lastAssistant()).toHaveAttribute("data-message-id", oldReplyId);

    // Stored: a reload shows the version last chosen, still switchable.
    await chat.reload();
    await expect(chat.lastAssistant()).toHaveAttribute("data-message-id", oldReplyId);
    await expect(chat.lastAssistant().getByTestId("branch-position")).toHaveText("1/2");
    await expect(chat.assistantMessages).toHaveCount(2);
    expect(words(await chat.replyText())).toHaveLength(40);
  });

  test("Continue after a stopped reply grows the same reply, with no message of the person's, and a complete reply does not offer it", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    await chat.ask("hello");
    await expect(chat.lastAssistant().getByTestId("continue")).toHaveCount(0);

    await chat.send("write 300 words about rivers");
    await expect.poll(async () => words(await chat.replyText()).length).toBeGreaterThanOrEqual(5);
    await chat.stopButton.click();
    const stopped = chat.lastAssistant();
    await expect(stopped).toHaveAttribute("data-status", "incomplete");
    const replyId = await stopped.getAttribute("data-message-id");
    const cont = stopped.getByRole("button", { name: "Continue this reply from where it stopped" });
    await expect(cont).toBeVisible();
    await expectAxeClean(page, "message actions");
    const written = words(await chat.replyText()).length;
    expect(written).toBeLessThan(300);

    await cont.click();
    await chat.waitForReplyDone();
    // The same bubble, grown to the whole count (the demo model goes on where it stopped); no new person message.
    await expect(chat.lastAssistant()).toHaveAttribute("data-message-id", replyId!);
    await expect(chat.lastAssistant()).toHaveAttribute("data-status", "complete");
    await expect(chat.userMessages).toHaveCount(2);
    await expect(chat.assistantMessages).toHaveCount(2);
    await expect.poll(async () => words(await chat.replyText()).length).toBe(300);
    await expect(page.getByTestId("continue")).toHaveCount(0);
    await expectAxeClean(page, "message actions");

    // Stored so: a reload shows the one grown reply.
    await chat.reload();
    await expect(chat.assistantMessages).toHaveCount(2);
    await expect(chat.userMessages).toHaveCount(2);
    expect(words(await chat.replyText())).toHaveLength(300);
    const view = (await (await page.request.get(`/api/conversations/${await chat.conversationId()}`)).json()) as View;
    expect(view.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(view.messages.at(-1)!.id).toBe(replyId);
  });
});
