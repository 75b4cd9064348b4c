// The conversation list: ordering, switching between conversations, renaming and deleting (with confirmation).
import { expect, type Page, test } from "@playwright/test";
import { ruleTitle } from "../../lib/agent/titles";
import { ChatPage } from "./pages/chat-page";

/** The title the demo model's rule gives a conversation after its first exchange. */
const titled = (first: string): string => ruleTitle(first) ?? first;

/** A short tag that keeps this test's conversations apart from the ones other tests made in the same database. */
const uniqueTag = () => Math.random().toString(36).slice(2, 8);

/**
 * Opens a new chat (a full page load of /) and sends one message; returns the new conversation's id.
 * It does not use the list's "New chat" link: see the test "the New chat link opens an empty chat…" below.
 */
async function createConversation(chat: ChatPage, text: string): Promise<string> {
  await chat.gotoNewChat();
  await chat.send(text);
  await chat.waitForReplyDone();
  const id = await chat.conversationId();
  await expect(chat.conversationItem(id)).toBeVisible();
  return id;
}

function patchesOf(page: Page, id: string): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "PATCH" && request.url().endsWith(`/api/conversations/${id}`))
      seen.push(request.postData() ?? "");
  });
  return seen;
}

test.describe("conversations", () => {
  test("new conversations go to the top of the list and each one shows its own messages", async ({ page }) => {
    const chat = new ChatPage(page);
    const tag = uniqueTag();
    const first = `first conversation ${tag}`;
    const second = `second conversation ${tag}`;
    const idA = await createConversation(chat, first);
    const idB = await createConversation(chat, second);
    expect(idB).not.toBe(idA);

    const expectOrder = async () => {
      await expect(chat.conversationItems.nth(0)).toHaveAttribute("data-conversation-id", idB);
      await expect(chat.conversationItems.nth(1)).toHaveAttribute("data-conversation-id", idA);
      await expect(chat.conversationTitles.nth(0)).toHaveText(titled(second));
      await expect(chat.conversationTitles.nth(1)).toHaveText(titled(first));
    };
    await expectOrder();
    await chat.reload();
    await expectOrder();

    // Switch to the older conversation from the list.
    await chat.conversationItem(idA).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/c/${idA}$`));
    await expect(chat.userMessages).toHaveCount(1);
    await expect(chat.lastUser()).toHaveText(first);
    await expect(chat.assistantMessages).toHaveCount(1);
    await expect(chat.lastAssistant()).toContainText(first);
    await expect(chat.chatTitle).toHaveText(titled(first));
    await expect(chat.conversationItem(idA).getByRole("link")).toHaveAttribute("aria-current", "page");
    await expect(chat.conversationItem(idB).getByRole("link")).not.toHaveAttribute("aria-current", "page");

    // And back.
    await chat.conversationItem(idB).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/c/${idB}$`));
    await expect(chat.userMessages).toHaveCount(1);
    await expect(chat.lastUser()).toHaveText(second);
    await expect(chat.lastAssistant()).toContainText(second);
    await expect(chat.chatTitle).toHaveText(titled(second));

    // Viewing a conversation does not reorder the list; writing in one moves it to the top.
    await expectOrder();
    await chat.conversationItem(idA).getByRole("link").click();
    await expect(chat.lastUser()).toHaveText(first);
    await chat.send(`follow-up ${tag}`);
    await chat.waitForReplyDone();
    await expect(chat.userMessages).toHaveCount(2);
    await expect(chat.conversationItems.nth(0)).toHaveAttribute("data-conversation-id", idA);
    await expect(chat.conversationItems.nth(1)).toHaveAttribute("data-conversation-id", idB);
    // The title stays the one made after the first exchange.
    await expect(chat.conversationTitles.nth(0)).toHaveText(titled(first));
  });

  test("renames a conversation from the list; the header follows and the name survives a reload", async ({ page }) => {
    const chat = new ChatPage(page);
    const tag = uniqueTag();
    const original = `to be renamed ${tag}`;
    // Not what the demo model's title rule makes of the first message ("Renamed <tag>"): that would change nothing.
    const renamed = `My own name ${tag}`;
    const id = await createConversation(chat, original);
    await expect(chat.chatTitle).toHaveText(titled(original));
    const patches = patchesOf(page, id);

    await chat.rename(renamed, id);
    await expect(chat.conversationItem(id).getByTestId("conversation-title")).toHaveText(renamed);
    await expect(chat.chatTitle).toHaveText(renamed);
    await expect.poll(() => patches.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(patches[0]!)).toEqual({ title: renamed });

    await chat.reload();
    await expect(chat.conversationItem(id).getByTestId("conversation-title")).toHaveText(renamed);
    await expect(chat.chatTitle).toHaveText(renamed);
    expect(patches, "one PATCH per rename").toHaveLength(1);

    // Escape abandons an edit.
    const item = chat.conversationItem(id);
    await item.hover();
    await item.getByTestId("rename-button").click();
    const field = chat.conversationList.getByTestId("rename-input");
    await expect(field).toHaveValue(renamed);
    await field.fill("not this one");
    await field.press("Escape");
    await expect(field).toBeHidden();
    await expect(item.getByTestId("conversation-title")).toHaveText(renamed);
    await chat.reload();
    await expect(chat.conversationItem(id).getByTestId("conversation-title")).toHaveText(renamed);
  });

  test("deletes a conversation only after confirmation", async ({ page }) => {
    const chat = new ChatPage(page);
    const tag = uniqueTag();
    const keep = `keep me ${tag}`;
    const doomed = `delete me ${tag}`;
    const doomedId = await createConversation(chat, doomed);
    const keepId = await createConversation(chat, keep);

    // Cancel first: nothing changes.
    const confirm = await chat.startDelete(doomedId);
    await expect(confirm).toContainText(titled(doomed));
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(chat.conversationItem(doomedId)).toBeVisible();
    await chat.reload();
    await expect(chat.conversationItem(doomedId)).toBeVisible();

    // Then confirm.
    await chat.delete(doomedId);
    await expect(chat.conversationItem(doomedId)).toHaveCount(0);
    await expect(chat.conversationItem(keepId)).toBeVisible();
    // Deleting another conversation leaves the open one alone.
    await expect(page).toHaveURL(new RegExp(`/c/${keepId}$`));
    await expect(chat.lastUser()).toHaveText(keep);

    await chat.reload();
    await expect(chat.conversationItem(keepId)).toBeVisible();
    await expect(chat.conversationItem(doomedId)).toHaveCount(0);
    await expect(chat.conversationList.getByText(doomed, { exact: true })).toHaveCount(0);
    // Its messages are gone too: the old address opens an empty chat.
    await chat.gotoConversation(doomedId);
    await expect(chat.emptyState).toBeVisible();
    await expect(chat.userMessages).toHaveCount(0);
  });

  test("deleting the open conversation goes to a new chat", async ({ page }) => {
    const chat = new ChatPage(page);
    const text = `open and deleted ${uniqueTag()}`;
    const id = await createConversation(chat, text);
    // Opened from its own address.
    await chat.reload();
    await expect(chat.lastUser()).toHaveText(text);

    await chat.delete(id);
    await expect(page).not.toHaveURL(new RegExp(`/c/${id}$`));
    await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
    await expect(chat.emptyState).toBeVisible();
    await expect(chat.userMessages).toHaveCount(0);
    await expect(chat.conversationItem(id)).toHaveCount(0);
    await expect(chat.chatTitle).toHaveText("New chat");
  });

  // Regression: "New chat" right after starting a conversation must open a fresh, empty one.
  test("the New chat link opens an empty chat right after a conversation was started", async ({ page }) => {
    const chat = new ChatPage(page);
    const text = `started here ${uniqueTag()}`;
    const id = await createConversation(chat, text);

    await chat.newChatLink.click();
    await expect(page).not.toHaveURL(new RegExp(`/c/${id}$`));
    await expect(chat.emptyState).toBeVisible({ timeout: 5_000 });
    await expect(chat.userMessages).toHaveCount(0);
    await expect(chat.chatTitle).toHaveText("New chat");

    // The next message starts another conversation instead of continuing the previous one.
    await chat.send(`another one ${uniqueTag()}`);
    await chat.waitForReplyDone();
    expect(await chat.conversationId()).not.toBe(id);
    await expect(chat.userMessages).toHaveCount(1);
  });
});
