// Page object for workspaces: the switcher at the top of the conversation list (the sidebar, or the drawer on a
// phone — helpers act on the visible one) and the settings view at /w/<id> (memory, knowledge files, skills).
import { expect, type Locator, type Page } from "@playwright/test";

export class WorkspacePage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  // ---- switcher -------------------------------------------------------------------------------------------------

  get switcher(): Locator {
    return this.page.getByTestId("workspace-switcher").filter({ visible: true });
  }
  get select(): Locator {
    return this.switcher.getByTestId("workspace-select");
  }
  get error(): Locator {
    return this.switcher.getByTestId("workspace-error");
  }

  /** The id of the chosen workspace. */
  async currentId(): Promise<string> {
    return (await this.switcher.getAttribute("data-current")) ?? "";
  }

  /** Creates a workspace from the switcher (it becomes the chosen one); returns its id. */
  async create(name: string): Promise<string> {
    await this.switcher.getByTestId("workspace-new").click();
    const input = this.switcher.getByTestId("workspace-name-input");
    await expect(input).toBeFocused();
    await input.fill(name);
    await input.press("Enter");
    await expect(input).toBeHidden();
    await expect(this.select.locator("option:checked")).toHaveText(name);
    return this.currentId();
  }

  async choose(name: string): Promise<void> {
    await this.select.selectOption({ label: name });
    await expect(this.select.locator("option:checked")).toHaveText(name);
  }

  async renameCurrent(name: string): Promise<void> {
    await this.switcher.getByTestId("workspace-rename").click();
    const input = this.switcher.getByTestId("workspace-name-input");
    await input.fill(name);
    await input.press("Enter");
    await expect(input).toBeHidden();
  }

  get renameButton(): Locator {
    return this.switcher.getByTestId("workspace-rename");
  }
  get deleteButton(): Locator {
    return this.switcher.getByTestId("workspace-delete");
  }

  /** Asks to delete the chosen workspace and confirms. */
  async deleteCurrent(): Promise<void> {
    await this.switcher.getByTestId("workspace-delete").click();
    await this.switcher.getByTestId("workspace-delete-yes").click();
  }

  // ---- settings view --------------------------------------------------------------------------------------------

  get settings(): Locator {
    return this.page.getByTestId("workspace-settings");
  }
  /** The note a member sees on a shared workspace's settings (they use it; only its owner or an admin changes it). */
  get readOnlyNote(): Locator {
    return this.page.getByTestId("workspace-read-only");
  }
  get memoryEntries(): Locator {
    return this.page.getByTestId("memory-entry");
  }
  get knowledgeFiles(): Locator {
    return this.page.getByTestId("knowledge-file");
  }
  get knowledgeError(): Locator {
    return this.page.getByTestId("knowledge-error");
  }
  /** The warning that the instructions alone exceed the budget. */
  get instructionsOverBudget(): Locator {
    return this.page.getByTestId("instructions-over-budget");
  }
  get instructionsInput(): Locator {
    return this.page.getByTestId("workspace-instructions");
  }

  /** Replaces the instructions in the settings view and saves them. */
  async saveInstructions(text: string): Promise<void> {
    await this.instructionsInput.fill(text);
    await this.page.getByTestId("workspace-instructions-save").click();
    await expect(this.page.getByTestId("workspace-instructions-message")).toContainText("Instructions saved.");
  }

  memoryEntry(text: string): Locator {
    return this.memoryEntries.filter({ has: this.page.getByTestId("memory-text").getByText(text, { exact: true }) });
  }
  knowledgeFile(path: string): Locator {
    return this.page.locator(`[data-testid="knowledge-file"][data-path="${path}"]`);
  }

  /** The settings view's switch for settings.memory.fromCompression. */
  get memoryFromCompression(): Locator {
    return this.page.getByTestId("workspace-memory-from-compression");
  }

  async gotoSettings(id: string): Promise<void> {
    await this.page.goto(`/w/${id}`);
    await expect(this.settings).toBeVisible();
    await expect(this.page.getByTestId("memory-list")).toHaveAttribute("data-loaded", "true");
    await expect(this.page.getByTestId("knowledge-list")).toHaveAttribute("data-loaded", "true");
  }

  async addMemory(text: string): Promise<void> {
    await this.page.getByTestId("memory-add-input").fill(text);
    await this.page.getByTestId("memory-add").click();
    await expect(this.memoryEntry(text)).toBeVisible();
  }

  async editMemory(from: string, to: string): Promise<void> {
    await this.memoryEntry(from).getByTestId("memory-edit").click();
    const input = this.page.getByTestId("memory-edit-input");
    await input.fill(to);
    await input.press("Enter");
    await expect(this.memoryEntry(to)).toBeVisible();
  }

  async deleteMemory(text: string): Promise<void> {
    await this.memoryEntry(text).getByTestId("memory-delete").click();
    await expect(this.memoryEntry(text)).toHaveCount(0);
  }

  /** Uploads files through the file picker. */
  async uploadByPicker(files: Array<{ name: string; content: string; mimeType?: string }>): Promise<void> {
    await this.page
      .getByTestId("knowledge-input")
      .setInputFiles(
        files.map((f) => ({ name: f.name, mimeType: f.mimeType ?? "text/plain", buffer: Buffer.from(f.content) })),
      );
  }

  /** Drops files on the drop zone: a real drop event carrying a DataTransfer with the files. */
  async uploadByDrop(files: Array<{ name: string; content: string; mimeType?: string }>): Promise<void> {
    const dataTransfer = await this.page.evaluateHandle((list) => {
      const transfer = new DataTransfer();
      for (const f of list) transfer.items.add(new File([f.content], f.name, { type: f.mimeType ?? "text/plain" }));
      return transfer;
    }, files);
    const zone = this.page.getByTestId("knowledge-drop");
    await zone.dispatchEvent("dragover", { dataTransfer });
    await zone.dispatchEvent("drop", { dataTransfer });
  }
}
