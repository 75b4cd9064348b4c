// A failing model provider, on the app instance wired to the OpenAI fake (one automatic retry): the wait is shown,
// a failure is shown in words with a Retry button, it is stored with the conversation, and retrying sends the
// message again once.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { chatRequests, enqueueReplies, FAKE_APP_URL, resetFake } from "./support/openai-fake-control";

const uniqueTag = () => Math.random().toString(36).slice(2, 8);
const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;
/** A failed call and its failed automatic retry. */
const SERVER_ERROR = { kind: "http-error", status: 500 } as const;
const FAILS_TWICE = [SERVER_ERROR, SERVER_ERROR];

test.describe("provider errors", () => {
  test.beforeEach(async ({ request }) => {
    await resetFake(request);
  });

  test("an HTTP 500 is shown with a retry, stays after a reload, and retrying recovers", async ({ page, request }) => {
    await enqueueReplies(request, FAILS_TWICE);
    const chat = new ChatPage(page, FAKE_APP_URL);
    await chat.gotoNewChat();
    const text = `Tell me about estuaries ${uniqueTag()}`;
    await chat.send(text);

    await expect(chat.chatError).toBeVisible();
    await expect(chat.chatError).toHaveAttribute("role", "alert");
    await expect(chat.chatError).toContainText(/model provider/i);
    await expect(chat.chatError).toContainText("HTTP 500");
    await expect(chat.chatError).toContainText("Gave up after 1 retry");
    // A sentence for people, not a JSON body or a stack trace.
    await expect(chat.chatError).not.toContainText("{");
    await expect(chat.chatError).not.toContainText(/\bat \S+ \(/);
    await expect(chat.retryButton).toBeVisible();
    await expect(chat.lastUser()).toHaveText(text);
    await expect(chat.sendButton).toBeVisible();
    const shownError = ((await chat.chatError.textContent()) ?? "").trim();

    // The failure is part of the stored conversation.
    const id = await chat.conversationId();
    await chat.reload();
    await expect(page).toHaveURL(new RegExp(`/c/${id}$`));
    await expect(chat.userMessages).toHaveCount(1);
    await expect(chat.lastUser()).toHaveText(text);
    await expect(chat.lastAssistant()).toHaveAttribute("data-status", "error");
    await expect(chat.chatError).toBeVisible();
    await expect(chat.chatError).toContainText("HTTP 500");
    expect(((await chat.chatError.textContent()) ?? "").trim()).toBe(shownError);
    await expect(chat.retryButton).toBeVisible();

    await enqueueReplies(request, [{ text: "Recovered fine" }]);
    await chat.retryButton.click();
    await expect.poll(() => chat.replyText()).toBe("Recovered fine");
    await chat.waitForReplyDone();
    await expect(chat.lastAssistant()).toHaveAttribute("data-status", "complete");
    await expect(chat.chatError).toBeHidden();
    await expect(chat.userMessages).toHaveCount(1);
    await expect(chat.assistantMessages).toHaveCount(1);

    // The retry sent the person's message once, not a second copy of it.
    const sent = await chatRequests(request);
    expect(sent).toHaveLength(3);
    const retried = JSON.stringify(sent[2]!.body.messages);
    expect(occurrences(retried, text)).toBe(1);
    expect(retried).not.toContain("HTTP 500");

    // And the recovered reply is what is stored now.
    await chat.reload();
    await expect(chat.userMessages).toHaveCount(1);
    await expect(chat.assistantMessages).toHaveCount(1);
    expect(await chat.replyText()).toBe("Recovered fine");
    await expect(chat.chatError).toBeHidden();
  });

  test("retrying straight after a failure (no reload) sends the message once", async ({ page, request }) => {
    await enqueueReplies(request, [...FAILS_TWICE, { text: "Second time lucky" }]);
    const chat = new ChatPage(page, FAKE_APP_URL);
    await chat.gotoNewChat();
    const text = `Explain tides ${uniqueTag()}`;
    await chat.send(text);
    await expect(chat.chatError).toContainText("HTTP 500");

    await chat.retryButton.click();
    await expect.poll(() => chat.replyText()).toBe("Second time lucky");
    await chat.waitForReplyDone();
    await expect(chat.chatError).toBeHidden();
    await expect(chat.userMessages).toHaveCount(1);
    await expect(chat.assistantMessages).toHaveCount(1);

    const sent = await chatRequests(request);
    expect(sent).toHaveLength(3);
    expect(occurrences(JSON.stringify(sent[2]!.body.messages), text)).toBe(1);

    await chat.reload();
    await expect(chat.userMessages).toHaveCount(1);
    expect(await chat.replyText()).toBe("Second time lucky");
    await expect(chat.chatError).toBeHidden();
  });

  test("a rate limit shows a retry countdown, then the reply arrives and the notice goes", async ({
    page,
    request,
  }) => {
    // 4 s: long enough that a loaded machine reads the notice before the retry takes it away.
    await enqueueReplies(request, [
      { kind: "http-error", status: 429, headers: { "retry-after": "4" } },
      { text: "Worth the wait" },
    ]);
    const chat = new ChatPage(page, FAKE_APP_URL);
    await chat.gotoNewChat();
    await chat.send(`Patience ${uniqueTag()}`);
    await expect(chat.retryNotice).toBeVisible();
    await expect(chat.retryNotice).toHaveAttribute("role", "status");
    await expect(chat.retryNotice).toContainText("rate-limiting");
    await expect(chat.retryNotice).not.toContainText("Try again");
    await expect(chat.retryNotice).toContainText(/Retrying in [1-4] s \(attempt 1 of 1\)/);
    await expect.poll(() => chat.replyText()).toBe("Worth the wait");
    await chat.waitForReplyDone();
    await expect(chat.retryNotice).toBeHidden();
    await expect(chat.chatError).toBeHidden();
    await expect(chat.lastAssistant()).toHaveAttribute("data-status", "complete");
  });

  test("the header names the configured model, not the demo", async ({ page }) => {
    const chat = new ChatPage(page, FAKE_APP_URL);
    await chat.gotoNewChat();
    await expect(chat.modelBadge).toContainText("fake-model");
    await expect(chat.modelBadge).not.toContainText("Demo");
  });
});
