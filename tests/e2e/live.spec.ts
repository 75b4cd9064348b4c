// Live replies on the demo model (a word every 25 ms): a reload mid-reply picks the reply up where it is, two tabs on
// one conversation stay in step, and Stop in one tab stops the reply another tab started.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

const words = (text: string): string[] => text.trim().split(/\s+/).filter(Boolean);

test.describe("live replies", () => {
  test("a reload mid-reply continues the reply to its end", async ({ page }) => {
    // 800 words take 20 s: a reload on a loaded CI machine took more than the 7.5 s of 300, and found the reply done.
    test.setTimeout(90_000);
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    await chat.send("write 800 words about rivers");
    await expect.poll(async () => words(await chat.replyText()).length).toBeGreaterThanOrEqual(5);
    await chat.reload();
    // Resumed: still being written after the reload, and it grows.
    const reply = chat.lastAssistant();
    await expect(reply).toHaveAttribute("data-status", "streaming");
    const first = words(await chat.replyText(reply)).length;
    await expect.poll(async () => words(await chat.replyText(reply)).length).toBeGreaterThan(first);
    await chat.waitForReplyDone({ timeout: 45_000 });
    await expect(reply).toHaveAttribute("data-status", "complete");
    expect(words(await chat.replyText(reply))).toHaveLength(800);
  });

  test("a message sent in one tab appears in another without a reload, and Stop there stops it", async ({
    page,
    context,
  }) => {
    const tab1 = new ChatPage(page);
    await tab1.gotoNewChat();
    await tab1.ask("write 5 words about lakes");
    const id = await tab1.conversationId();

    const tab2 = new ChatPage(await context.newPage());
    await tab2.gotoConversation(id);
    await expect(tab2.assistantMessages).toHaveCount(1);

    // Tab 1 sends; tab 2 shows the message and follows the reply as it is written.
    await tab1.send("write 40 words about rain");
    await expect(tab2.userMessages).toHaveCount(2);
    await expect(tab2.lastUser()).toHaveText("write 40 words about rain");
    await tab1.waitForReplyDone();
    await expect(tab2.lastAssistant()).toHaveAttribute("data-status", "complete");
    await expect.poll(async () => words(await tab2.replyText()).length).toBe(40);
    expect(await tab2.replyText()).toBe(await tab1.replyText());

    // A long reply started in tab 1 is stopped from tab 2.
    await tab1.send("write 2000 words about rivers");
    await expect(tab2.userMessages).toHaveCount(3);
    await expect(tab2.stopButton).toBeVisible();
    await expect.poll(async () => words(await tab2.replyText()).length).toBeGreaterThanOrEqual(5);
    await tab2.stopButton.click();
    await expect(tab1.lastAssistant()).toHaveAttribute("data-status", "incomplete");
    await expect(tab1.stopButton).toBeHidden();
    await expect(tab2.lastAssistant()).toHaveAttribute("data-status", "incomplete");
    expect(words(await tab1.replyText()).length).toBeLessThan(2000);

    // A conversation started in tab 1 joins tab 2's list.
    await tab1.gotoNewChat();
    await tab1.ask("write 3 words about snow");
    const other = await tab1.conversationId();
    await expect(tab2.conversationItem(other)).toBeVisible();
  });
});
