// Page objects for accounts mode (HINTLINE_AUTH=accounts): the sign-in and sign-up forms, the header's user menu and
// the admin page (users, invitations, shared workspaces).
import { expect, type Locator, type Page } from "@playwright/test";

export type Person = { name: string; email: string; password: string };

export function personFor(name: string): Person {
  return { name, email: `${name.toLowerCase()}@example.test`, password: `${name}-correct-horse-battery` };
}

export class AccountForms {
  constructor(
    readonly page: Page,
    readonly origin: string,
  ) {}

  get error(): Locator {
    return this.page.getByTestId("auth-error");
  }
  get signUpForm(): Locator {
    return this.page.getByTestId("account-sign-up");
  }
  get signInForm(): Locator {
    return this.page.getByTestId("account-sign-in");
  }

  /** Fills and sends the sign-up form at `path` (e.g. an invitation link's path and query). */
  async signUp(person: Person, path = "/sign-up"): Promise<void> {
    await this.page.goto(new URL(path, this.origin).toString());
    await this.page.getByTestId("auth-name").fill(person.name);
    await this.page.getByTestId("auth-email").fill(person.email);
    await this.page.getByTestId("auth-password").fill(person.password);
    await this.page.getByTestId("auth-submit").click();
  }

  /** Fills and sends the sign-in form (the page the browser is on, or /sign-in). */
  async signIn(person: Pick<Person, "email" | "password">, { goto = true } = {}): Promise<void> {
    if (goto) await this.page.goto(new URL("/sign-in", this.origin).toString());
    await expect(this.signInForm).toBeVisible();
    await this.page.getByTestId("auth-email").fill(person.email);
    await this.page.getByTestId("auth-password").fill(person.password);
    await this.page.getByTestId("auth-submit").click();
  }
}

export class UserMenu {
  constructor(readonly page: Page) {}

  get trigger(): Locator {
    return this.page.getByTestId("user-menu");
  }
  get adminLink(): Locator {
    return this.page.getByTestId("user-menu-admin");
  }
  get ownSkillsLink(): Locator {
    return this.page.getByTestId("user-menu-own-skills");
  }

  async open(): Promise<void> {
    await this.trigger.click();
    await expect(this.page.getByTestId("user-menu-name")).toBeVisible();
  }

  async signOut(): Promise<void> {
    await this.open();
    await this.page.getByTestId("user-menu-sign-out").click();
    await expect(this.page).toHaveURL(/\/sign-in$/);
  }
}

export class AdminPage {
  constructor(
    readonly page: Page,
    readonly origin: string,
  ) {}

  get users(): Locator {
    return this.page.getByTestId("user-row");
  }
  get sharedWorkspaces(): Locator {
    return this.page.getByTestId("shared-workspace");
  }
  userRow(email: string): Locator {
    return this.page.locator(`[data-testid="user-row"][data-email="${email}"]`);
  }

  async goto(): Promise<void> {
    await this.page.goto(new URL("/admin", this.origin).toString());
    await expect(this.page.getByTestId("users-table")).toBeVisible();
  }

  /** Asks for an invitation and returns the link's path and query (the link names the server's own origin). */
  async invite(): Promise<string> {
    const link = this.page.getByTestId("invite-link");
    const before = (await link.count()) > 0 ? await link.inputValue() : "";
    await this.page.getByTestId("invite").click();
    await expect(link).not.toHaveValue(before);
    const url = new URL(await link.inputValue());
    expect(url.origin).toBe(this.origin);
    return `${url.pathname}${url.search}`;
  }

  async setDisabled(email: string, disabled: boolean): Promise<void> {
    const row = this.userRow(email);
    await row.getByTestId("user-toggle-disabled").click();
    await expect(row).toHaveAttribute("data-disabled", String(disabled));
  }

  /** Opens the user's budget form, fills both fields (empty: the default) and saves; the form closes. */
  async setBudget(email: string, budget: { tokensPerDay: string; usdPerMonth: string }): Promise<void> {
    const row = this.userRow(email);
    await row.getByTestId("user-edit-budget").click();
    const form = this.page.getByTestId("budget-form");
    await form.getByLabel("Tokens per day").fill(budget.tokensPerDay);
    await form.getByLabel("Dollars per month").fill(budget.usdPerMonth);
    await form.getByTestId("budget-save").click();
    await expect(form).toHaveCount(0);
  }

  async createSharedWorkspace(name: string): Promise<string> {
    await this.page.getByTestId("shared-workspace-name").fill(name);
    await this.page.getByTestId("shared-workspace-create").click();
    const item = this.sharedWorkspaces.filter({ hasText: name });
    await expect(item).toBeVisible();
    return (await item.getAttribute("data-id")) ?? "";
  }
}

/** The signed-in person's own skills (/me), reached from the user menu. */
export class OwnSkillsPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId("own-skills-page");
  }
  skill(name: string): Locator {
    return this.root.locator(`[data-testid="skill-item"][data-name="${name}"]`);
  }

  async create(skill: { name: string; description: string; instructions: string }): Promise<void> {
    await this.root.getByTestId("skill-new").click();
    await this.root.getByTestId("skill-name-input").fill(skill.name);
    await this.root.getByTestId("skill-description-input").fill(skill.description);
    await this.root.getByTestId("skill-instructions-input").fill(skill.instructions);
    await this.root.getByTestId("skill-save").click();
    await expect(this.skill(skill.name)).toBeVisible();
  }
}
