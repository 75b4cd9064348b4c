// Page object for subagents: the side panel's Subagents section (the visible one: the aside, or the drawer on a
// phone), a row per child, its Stop, and the transcript drawer a row or the parent's AgentSpawn tool row opens.
import { expect, type Locator, type Page } from "@playwright/test";

export class SubagentsPanel {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  get panel(): Locator {
    return this.page.getByTestId("agent-panel").filter({ visible: true });
  }
  get rows(): Locator {
    return this.panel.getByTestId("agent-row");
  }
  row(agentKey: string): Locator {
    return this.panel.locator(`[data-testid="agent-row"][data-agent-key="${agentKey}"]`);
  }
  async expectStatus(
    agentKey: string,
    status: "running" | "done" | "error" | "stopped",
    timeout = 30_000,
  ): Promise<void> {
    await expect(this.row(agentKey)).toHaveAttribute("data-status", status, { timeout });
  }
  async stop(agentKey: string): Promise<void> {
    await this.row(agentKey).getByTestId("agent-stop").click();
  }
  async openFromPanel(agentKey: string): Promise<Locator> {
    await this.row(agentKey).getByTestId("agent-open").click();
    await expect(this.drawer).toBeVisible();
    return this.drawer;
  }
  /** The transcript button beside an AgentSpawn / AgentSend tool row of `reply`. */
  async openFromToolRow(reply: Locator): Promise<Locator> {
    await reply.locator('[data-testid="tool-row"][data-tool^="Agent"]').getByTestId("tool-open-agent").first().click();
    await expect(this.drawer).toBeVisible();
    return this.drawer;
  }

  /** The "Waiting for your approval" note and the approval card(s) under a child's row. */
  waiting(agentKey: string): Locator {
    return this.row(agentKey).getByTestId("agent-waiting");
  }
  approvalCard(agentKey: string): Locator {
    return this.row(agentKey).getByTestId("agent-approvals").getByTestId("approval-card");
  }
  /** The approval card under the parent's AgentSpawn / AgentSend row that waits for its child. */
  toolRowApprovalCard(reply: Locator): Locator {
    return reply
      .locator('[data-testid="tool-row"][data-tool^="Agent"]')
      .getByTestId("tool-agent-approvals")
      .getByTestId("approval-card");
  }

  get drawer(): Locator {
    return this.page.getByTestId("agent-transcript");
  }
  get drawerStatus(): Locator {
    return this.drawer.getByTestId("agent-transcript-status");
  }
  get drawerMessages(): Locator {
    return this.drawer.getByTestId("agent-transcript-messages");
  }
}
