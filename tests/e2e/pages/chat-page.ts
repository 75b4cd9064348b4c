// Page object for Hintline's chat screen: the composer, the transcript, the header and the conversation list
// (the sidebar on wide screens, the drawer on phones — helpers always act on the one that is visible).
import { expect, type Locator, type Page } from "@playwright/test";

/** The id in a /c/<id> URL. */
const CONVERSATION_URL = /\/c\/([A-Za-z0-9_-]{1,64})(?:[?#].*)?$/;

/** A file to attach in a test. */
export type AttachmentFile = { name: string; mimeType: string; buffer: Buffer };

export class ChatPage {
  readonly page: Page;
  /** Origin of the app under test; undefined means the config's baseURL (the demo app). */
  readonly origin: string | undefined;

  constructor(page: Page, origin?: string) {
    this.page = page;
    this.origin = origin;
  }

  // ---- locators -------------------------------------------------------------------------------------------------

  get input(): Locator {
    return this.page.getByTestId("composer-input");
  }
  get sendButton(): Locator {
    return this.page.getByTestId("send-button");
  }
  get stopButton(): Locator {
    return this.page.getByTestId("stop-button");
  }
  get userMessages(): Locator {
    return this.page.getByTestId("message-user");
  }
  get assistantMessages(): Locator {
    return this.page.getByTestId("message-assistant");
  }
  get emptyState(): Locator {
    return this.page.getByTestId("empty-state");
  }
  get chatError(): Locator {
    return this.page.getByTestId("chat-error");
  }
  get retryNotice(): Locator {
    return this.page.getByTestId("retry-notice");
  }
  get retryButton(): Locator {
    return this.page.getByTestId("retry-button");
  }
  get chatTitle(): Locator {
    return this.page.getByTestId("chat-title");
  }
  get modelBadge(): Locator {
    return this.page.getByTestId("model-badge");
  }
  /** The header's model picker (a native select labelled "Model", over the model badge). */
  get modelPicker(): Locator {
    return this.page.getByTestId("model-picker");
  }
  /** The transcript's "Model: A → B" dividers. */
  get modelSwitches(): Locator {
    return this.page.getByTestId("model-switch");
  }
  get themeToggle(): Locator {
    return this.page.getByTestId("theme-toggle");
  }
  get menuButton(): Locator {
    return this.page.getByTestId("menu-button");
  }
  get drawer(): Locator {
    return this.page.getByTestId("drawer");
  }
  /** The conversation list the person can see (the sidebar's, or the open drawer's on a phone). */
  get conversationList(): Locator {
    return this.page.getByTestId("conversation-list").filter({ visible: true });
  }
  get conversationItems(): Locator {
    return this.conversationList.getByTestId("conversation-item");
  }
  get conversationTitles(): Locator {
    return this.conversationItems.getByTestId("conversation-title");
  }
  get newChatLink(): Locator {
    return this.page.getByTestId("new-chat").filter({ visible: true });
  }
  get messageList(): Locator {
    return this.page.getByTestId("message-list");
  }
  /** The task panel the person can see (the side panel's, or the panel drawer's on a phone). */
  get taskPanel(): Locator {
    return this.page.getByTestId("task-panel").filter({ visible: true });
  }
  get taskItems(): Locator {
    return this.taskPanel.getByTestId("task-item");
  }
  get taskAddInput(): Locator {
    return this.taskPanel.getByTestId("task-add-input");
  }
  get modeToggle(): Locator {
    return this.page.getByTestId("mode-toggle");
  }
  get planBanner(): Locator {
    return this.page.getByTestId("plan-banner");
  }
  /** The plan panel the person can see (below the tasks in the side panel, or in the panel drawer on a phone). */
  get planPanel(): Locator {
    return this.page.getByTestId("plan-panel").filter({ visible: true });
  }
  get planContent(): Locator {
    return this.planPanel.getByTestId("plan-content");
  }
  get attachButton(): Locator {
    return this.page.getByTestId("attach-button");
  }
  get attachmentChips(): Locator {
    return this.page.getByTestId("attachment-chip");
  }
  get attachmentErrors(): Locator {
    return this.page.getByTestId("attachment-errors");
  }
  get composerDropzone(): Locator {
    return this.page.getByTestId("composer-dropzone");
  }
  /** Sent images (thumbnails in the person's messages) and other sent files (named chips). */
  get sentImages(): Locator {
    return this.page.getByTestId("message-attachment-image");
  }
  get sentFiles(): Locator {
    return this.page.getByTestId("message-attachment-file");
  }
  get signInToken(): Locator {
    return this.page.getByTestId("sign-in-token");
  }
  get signInSubmit(): Locator {
    return this.page.getByTestId("sign-in-submit");
  }

  /**
   * The rendered text of a reply (its markdown blocks, without status notes such as "Stopped — …"). Never waits:
   * a reply that has no text yet gives "". Reads `.prose-chat`, the markdown container, for want of a test id.
   */
  async replyText(reply: Locator = this.lastAssistant()): Promise<string> {
    return (await reply.locator(".prose-chat").allTextContents()).join("\n");
  }

  /** The text of a person's message, as typed (line breaks included). */
  async userText(message: Locator = this.lastUser()): Promise<string> {
    return (await message.textContent()) ?? "";
  }

  lastUser(): Locator {
    return this.userMessages.last();
  }
  lastAssistant(): Locator {
    return this.assistantMessages.last();
  }
  conversationItem(id: string): Locator {
    return this.conversationList.locator(`[data-testid="conversation-item"][data-conversation-id="${id}"]`);
  }
  conversationItemByTitle(title: string): Locator {
    return this.conversationItems.filter({ has: this.page.getByText(title, { exact: true }) });
  }

  // ---- navigation -----------------------------------------------------------------------------------------------

  url(path: string): string {
    return this.origin ? new URL(path, this.origin).toString() : path;
  }

  /** Opens a new, empty chat and waits until the page is interactive. */
  async gotoNewChat(): Promise<void> {
    await this.page.goto(this.url("/"));
    await expect(this.emptyState).toBeVisible();
    await this.waitForHydration();
  }

  async gotoConversation(id: string): Promise<void> {
    await this.page.goto(this.url(`/c/${id}`));
    await this.waitForHydration();
  }

  async reload(): Promise<void> {
    await this.page.reload();
    await this.waitForHydration();
  }

  /**
   * The app has no explicit "hydrated" marker; the conversation list renders its rows (or "No conversations yet.")
   * only after its client-side fetch, which runs after hydration. Both lists (sidebar and drawer) count, so this
   * also works on phones where the sidebar is hidden.
   */
  async waitForHydration(): Promise<void> {
    await expect(this.page.getByTestId("conversation-list").first().locator("li").first()).toBeAttached();
  }

  /** The id of the conversation on screen, read from the /c/<id> URL. */
  async conversationId(): Promise<string> {
    await expect(this.page).toHaveURL(CONVERSATION_URL);
    const match = CONVERSATION_URL.exec(new URL(this.page.url()).pathname);
    if (!match?.[1]) throw new Error(`Not a conversation URL: ${this.page.url()}`);
    return match[1];
  }

  /** Opens the settings drawer and returns it. */
  async openSettings(): Promise<Locator> {
    await this.page.getByTestId("open-settings").click();
    const drawer = this.page.getByTestId("settings-drawer");
    await expect(drawer).toBeVisible();
    return drawer;
  }

  /** Opens the settings drawer with its "Advanced" part (hints, time format, context limits, base prompt) shown. */
  async openAdvancedSettings(): Promise<Locator> {
    const drawer = await this.openSettings();
    await drawer.getByTestId("settings-advanced-toggle").click();
    await expect(drawer.getByTestId("settings-advanced")).toBeVisible();
    return drawer;
  }

  /** Saves the settings drawer's changes and waits for it to close. */
  async saveSettings(drawer: Locator): Promise<void> {
    await drawer.getByTestId("settings-save").click();
    await expect(drawer).toBeHidden();
  }

  /** Signs in through the sign-in page (a server with HINTLINE_AUTH_TOKEN), which then opens a new chat. */
  async signIn(token: string): Promise<void> {
    await this.page.goto(this.url("/sign-in"));
    await this.signInToken.fill(token);
    await this.signInSubmit.click();
    await expect(this.emptyState).toBeVisible();
    await this.waitForHydration();
  }

  // ---- composing ------------------------------------------------------------------------------------------------

  /** Attaches files with the paperclip button's file picker. */
  async attachByButton(files: AttachmentFile[]): Promise<void> {
    const chooser = this.page.waitForEvent("filechooser");
    await this.attachButton.click();
    await (await chooser).setFiles(files.map((f) => ({ name: f.name, mimeType: f.mimeType, buffer: f.buffer })));
  }

  /** Drops files on the composer, as a drag from the desktop does. */
  async dropFiles(files: AttachmentFile[]): Promise<void> {
    const transfer = await this.transferOf(files);
    await this.composerDropzone.dispatchEvent("dragover", { dataTransfer: transfer });
    await this.composerDropzone.dispatchEvent("drop", { dataTransfer: transfer });
  }

  /** Pastes files into the message box, as pasting a copied image does. */
  async pasteFiles(files: AttachmentFile[]): Promise<void> {
    const transfer = await this.transferOf(files);
    await this.input.evaluate((box, data) => {
      box.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data as DataTransfer, bubbles: true, cancelable: true }),
      );
    }, transfer);
  }

  private transferOf(files: AttachmentFile[]) {
    const encoded = files.map((f) => ({ name: f.name, type: f.mimeType, base64: f.buffer.toString("base64") }));
    return this.page.evaluateHandle((list) => {
      const transfer = new DataTransfer();
      for (const f of list)
        transfer.items.add(
          new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.type }),
        );
      return transfer;
    }, encoded);
  }

  /** Types the text and sends it with Enter; resolves once the person's message is on screen. */
  async send(text: string): Promise<void> {
    // The transcript is virtualised (only rows near the viewport are in the DOM): count on ids, not on rows.
    const last = this.lastUser();
    const before = (await last.count()) > 0 ? await last.getAttribute("data-message-id") : null;
    await this.input.fill(text);
    await expect(this.sendButton).toBeEnabled();
    await this.input.press("Enter");
    await expect(last).toBeAttached();
    if (before !== null) await expect(last).not.toHaveAttribute("data-message-id", before);
    await expect(this.input).toHaveValue("");
  }

  /** Sends the text and waits for the reply to settle; returns the reply's text. */
  /** Picks a model in the header and waits until the picker shows it (a stored conversation has been switched). */
  async pickModel(id: string): Promise<void> {
    await this.modelPicker.selectOption(id);
    await expect(this.modelPicker).toBeEnabled();
    await expect(this.modelPicker).toHaveValue(id);
    await expect(this.modelBadge).toContainText(id.replace(/^.*\//, ""));
  }

  async ask(text: string): Promise<string> {
    await this.send(text);
    await this.waitForReplyDone();
    return this.replyText();
  }

  /** Waits until no reply is being written: the last reply has settled and the send button is back. */
  async waitForReplyDone(options: { timeout?: number } = {}): Promise<void> {
    await expect(this.stopButton).toBeHidden(options);
    await expect(this.sendButton).toBeVisible(options);
    await expect(this.lastAssistant()).not.toHaveAttribute("data-status", "streaming", options);
  }

  // ---- conversation list ----------------------------------------------------------------------------------------

  async titlesInList(): Promise<string[]> {
    return (await this.conversationTitles.allTextContents()).map((t) => t.trim());
  }

  /** Renames a conversation from the list: hover its row, press the pencil, type, Enter. */
  async rename(title: string, id?: string): Promise<void> {
    const item = this.conversationItem(id ?? (await this.conversationId()));
    await item.hover();
    await item.getByTestId("rename-button").click();
    const field = this.conversationList.getByTestId("rename-input");
    await expect(field).toBeFocused();
    await field.fill(title);
    await field.press("Enter");
    await expect(field).toBeHidden();
  }

  /** Opens the delete confirmation for a conversation; returns the confirmation row. */
  async startDelete(id?: string): Promise<Locator> {
    const item = this.conversationItem(id ?? (await this.conversationId()));
    await item.hover();
    await item.getByTestId("delete-button").click();
    const confirm = this.conversationList.getByTestId("confirm-delete");
    await expect(confirm).toBeVisible();
    return confirm;
  }

  /** Deletes a conversation from the list, confirming it. */
  async delete(id?: string): Promise<void> {
    const confirm = await this.startDelete(id);
    await confirm.getByTestId("confirm-delete-yes").click();
    await expect(confirm).toBeHidden();
  }
}
