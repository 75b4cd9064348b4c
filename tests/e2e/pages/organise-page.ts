// Page object for organising the conversation list (the visible one: the sidebar's, or the drawer's on a phone):
// each row's menu (pin, archive, export), the Pinned section, the Archived view and the selection that exports
// several conversations into one file.
import { type Download, expect, type Locator, type Page } from "@playwright/test";
import { ChatPage } from "./chat-page";

export class OrganisePage {
  readonly page: Page;
  readonly chat: ChatPage;

  constructor(page: Page) {
    this.page = page;
    this.chat = new ChatPage(page);
  }

  /** The conversations importConversation made (removeImported deletes them: a pinned one left behind would stand
   * above the newest conversation in other tests' lists, which share the database). */
  readonly imported: string[] = [];

  async removeImported(): Promise<void> {
    for (const id of this.imported.splice(0)) await this.page.request.delete(this.chat.url(`/api/conversations/${id}`));
  }

  /** Imports a conversation with one exchange through the API; returns its id. */
  async importConversation(id: string, title: string): Promise<string> {
    const messages = [
      { id: `${id}-u`, role: "user", parts: [{ type: "text", text: `About ${title}` }] },
      { id: `${id}-a`, role: "assistant", parts: [{ type: "text", text: `${title}: noted.` }] },
    ];
    const response = await this.page.request.post(this.chat.url("/api/conversations/import"), {
      data: { version: 1, conversation: { id, title, messages } },
    });
    expect(response.status()).toBe(201);
    const created = ((await response.json()) as { id: string }).id;
    this.imported.push(created);
    return created;
  }

  get list(): Locator {
    return this.chat.conversationList;
  }
  get pinnedSection(): Locator {
    return this.list.locator('[data-testid="date-group"][data-group="pinned"]');
  }
  get archivedToggle(): Locator {
    return this.page.getByTestId("archived-toggle").filter({ visible: true });
  }
  get menu(): Locator {
    return this.page.getByTestId("row-menu-content");
  }
  row(id: string): Locator {
    return this.chat.conversationItem(id);
  }
  /** The ids of the rows shown, top to bottom. */
  async ids(): Promise<string[]> {
    return this.chat.conversationItems.evaluateAll((rows) =>
      rows.map((r) => r.getAttribute("data-conversation-id") ?? ""),
    );
  }

  /** Opens a row's menu; returns it. */
  async openMenu(id: string): Promise<Locator> {
    await this.row(id).getByTestId("row-menu").click();
    await expect(this.menu).toBeVisible();
    return this.menu;
  }

  async choose(id: string, action: "pin-button" | "archive-button" | "export-button"): Promise<void> {
    const menu = await this.openMenu(id);
    await menu.getByTestId(action).click();
    await expect(this.menu).toBeHidden();
  }

  async pin(id: string): Promise<void> {
    await this.choose(id, "pin-button");
    await expect(
      this.pinnedSection.locator(`[data-testid="conversation-item"][data-conversation-id="${id}"]`),
    ).toBeVisible();
  }

  /** Archives (or, in the archived view, unarchives) the row: it leaves the list shown. */
  async toggleArchived(id: string): Promise<void> {
    await this.choose(id, "archive-button");
    await expect(this.row(id)).toHaveCount(0);
  }

  async showArchived(shown: boolean): Promise<void> {
    await this.archivedToggle.click();
    await expect(this.archivedToggle).toHaveAttribute("aria-pressed", String(shown));
    await expect(this.list).toHaveAttribute("data-view", shown ? "archived" : "active");
    await expect(this.list).toHaveAttribute("data-loaded", "true");
  }

  /** Selects the rows and presses "Export N"; returns the download. */
  async exportSelected(ids: string[]): Promise<Download> {
    await this.page.getByTestId("select-toggle").filter({ visible: true }).click();
    for (const id of ids) await this.row(id).getByTestId("select-conversation").check();
    const button = this.page.getByTestId("export-selected").filter({ visible: true });
    await expect(button).toHaveText(`Export ${ids.length}`);
    const downloading = this.page.waitForEvent("download");
    await button.click();
    const download = await downloading;
    await expect(this.page.getByTestId("select-toggle").filter({ visible: true })).toBeVisible();
    return download;
  }
}
