// Page object for a compression chip in the transcript: the divider that opens to the summary, the evidence ledger
// and the durable facts the compression kept in the workspace's memory (each with an Undo).
import { expect, type Locator, type Page } from "@playwright/test";

export class CompressionChip {
  readonly root: Locator;

  constructor(page: Page) {
    this.root = page.getByTestId("compression-chip").last();
  }

  get toggle(): Locator {
    return this.root.getByRole("button").first();
  }
  get memory(): Locator {
    return this.root.getByTestId("compression-memory");
  }
  get facts(): Locator {
    return this.memory.getByTestId("compression-memory-fact");
  }
  fact(text: string): Locator {
    return this.facts.filter({ hasText: text });
  }

  /** Opens the chip (once) and waits for the summary. */
  async open(): Promise<void> {
    if ((await this.toggle.getAttribute("aria-expanded")) !== "true") await this.toggle.click();
    await expect(this.root.getByTestId("compression-summary")).toBeVisible();
  }

  /** Undoes one remembered fact and waits until the chip says it is gone. */
  async undo(text: string): Promise<void> {
    const fact = this.fact(text);
    await fact.getByTestId("compression-memory-undo").click();
    await expect(fact.getByTestId("compression-memory-undone")).toHaveText("Removed from memory");
    await expect(fact).toHaveAttribute("data-undone", "true");
  }
}
