// Accounts mode in the browser (HINTLINE_AUTH=accounts, an app of its own on a fresh database): the first sign-up
// creates the admin; the admin invites someone, who signs up with the link while a person without one is refused; a
// shared workspace is used by both while each sees only their own conversations; a disabled member's open tab is sent
// to the sign-in page on its next request and cannot sign in again; a member's own skill reaches their conversations in
// the shared workspace and not the admin's. The tests run in order on one server.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { AccountForms, AdminPage, OwnSkillsPage, personFor, UserMenu } from "./pages/accounts-pages";
import { ChatPage } from "./pages/chat-page";
import { WorkspacePage } from "./pages/workspace-page";
import { type AppProcess, migrateDatabase, startApp } from "./support/app-process";
import { expectAxeClean } from "./support/axe";

const PORT = (Number(process.env.HINTLINE_E2E_PORT_BASE) || 3400) + 6;
const admin = personFor("Ada");
const member = personFor("Grace");
const stranger = personFor("Mallory");
const SHARED = "Team handbook";
/** An environment variable's name, or a note's marks (lib/operator-words.ts) left in a text. */
const VARIABLE_NAMES = /HINTLINE_|_API_KEY|_BASE_URL|\u27e6|\u27e7/;

let app: AppProcess;

async function signedInPage(browser: Browser, person: typeof admin): Promise<{ page: Page; chat: ChatPage }> {
  const page = await (await browser.newContext()).newPage();
  await new AccountForms(page, app.url).signIn(person);
  const chat = new ChatPage(page, app.url);
  await expect(chat.emptyState).toBeVisible();
  await chat.waitForHydration();
  return { page, chat };
}

test.describe
  .serial("accounts mode", () => {
    test.beforeAll(async () => {
      const databaseUrl = `file:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hintline-e2e-accounts-")), "app.db")}`;
      migrateDatabase(databaseUrl);
      app = await startApp({
        port: PORT,
        databaseUrl,
        // Not HINTLINE_MCP_ALLOW_PRIVATE (playwright.config.ts sets it for every server): the address rule applies here.
        env: { HINTLINE_AUTH: "accounts", HINTLINE_DEMO_WORD_DELAY_MS: "1", HINTLINE_MCP_ALLOW_PRIVATE: "" },
      });
    });
    test.afterAll(async () => {
      await app?.terminate();
    });

    test("the first sign-up creates the admin, who lands in the chat with Admin in the user menu", async ({ page }) => {
      // Without a session every page leads to the sign-in page, which links to sign-up.
      await page.goto(`${app.url}/c/abc`);
      await expect(page).toHaveURL(`${app.url}/sign-in?next=%2Fc%2Fabc`);
      // No admin exists yet to invite anyone: the page says the first account becomes the admin.
      await expect(page.getByTestId("sign-up-note")).toHaveText(
        "No one has an account yet: the first account becomes the admin. Create it.",
      );
      await expectAxeClean(page, "sign-in before any account");
      await page.getByTestId("to-sign-up").click();
      const forms = new AccountForms(page, app.url);
      await expect(forms.signUpForm.getByRole("heading")).toHaveText("Create the admin account");

      // The password needs 10 characters: the form says so and sends nothing shorter (the browser's own check).
      await forms.signUp({ ...admin, password: "short" });
      await expect(page.getByTestId("auth-password")).toHaveJSProperty("validity.tooShort", true);

      await forms.signUp(admin);
      const chat = new ChatPage(page, app.url);
      await expect(chat.emptyState).toBeVisible();
      await chat.waitForHydration();
      const menu = new UserMenu(page);
      await menu.open();
      await expect(page.getByTestId("user-menu-name")).toHaveText(admin.name);
      await expect(page.getByTestId("user-menu-email")).toHaveText(`${admin.email} · admin`);
      await menu.adminLink.click();
      const adminPage = new AdminPage(page, app.url);
      await expect(page.getByTestId("users-table")).toBeVisible();
      await expect(adminPage.users).toHaveCount(1);
      await expect(adminPage.userRow(admin.email)).toHaveAttribute("data-admin", "true");

      // Signing out ends the session: the chat is behind the sign-in page again; a wrong password is refused in words.
      await menu.signOut();
      await page.goto(`${app.url}/`);
      await expect(page).toHaveURL(/\/sign-in\?next=%2F$/);
      await expect(page.getByTestId("sign-up-note")).toHaveText(
        "New here? Sign up with the invitation link an admin gave you.",
      );
      await forms.signIn({ email: admin.email, password: "not-the-password" }, { goto: false });
      await expect(forms.error).toHaveText("The email or password is not right.");
    });

    test("the admin invites someone: the link signs them up, a sign-up without one is refused", async ({ browser }) => {
      const { page } = await signedInPage(browser, admin);
      const adminPage = new AdminPage(page, app.url);
      await adminPage.goto();
      const link = await adminPage.invite();
      expect(link).toMatch(/^\/sign-up\?invitation=[\w-]+$/);

      const memberPage = await (await browser.newContext()).newPage();
      const memberForms = new AccountForms(memberPage, app.url);
      await memberForms.signUp(member, link);
      const memberChat = new ChatPage(memberPage, app.url);
      await expect(memberChat.emptyState).toBeVisible();
      await memberChat.waitForHydration();
      // A member's menu has no Admin link, and the admin page is not there for them.
      const menu = new UserMenu(memberPage);
      await menu.open();
      await expect(memberPage.getByTestId("user-menu-email")).toHaveText(member.email);
      await expect(menu.adminLink).toHaveCount(0);
      await memberPage.goto(`${app.url}/admin`);
      await expect(memberPage.getByRole("heading", { name: "Not found" })).toBeVisible();

      const strangerPage = await (await browser.newContext()).newPage();
      const strangerForms = new AccountForms(strangerPage, app.url);
      await strangerForms.signUp(stranger);
      await expect(strangerForms.error).toHaveText("Signing up needs an invitation link from an admin.");
      // The used link does not work twice.
      await strangerForms.signUp(stranger, link);
      await expect(strangerForms.error).toContainText("This invitation link is not valid");
      await expect(strangerPage).toHaveURL(/\/sign-up/);

      await page.reload();
      await expect(adminPage.users).toHaveCount(2);
      await expect(adminPage.userRow(member.email)).toHaveAttribute("data-admin", "false");
    });

    test("a shared workspace is used by both; each sees only their own conversations", async ({ browser }) => {
      const { page, chat } = await signedInPage(browser, admin);
      await chat.send("Admin's private plan for the offsite");
      await chat.waitForReplyDone();
      const privateId = await chat.conversationId();
      await expect(chat.conversationItem(privateId)).toBeVisible();

      const adminPage = new AdminPage(page, app.url);
      await adminPage.goto();
      const sharedId = await adminPage.createSharedWorkspace(SHARED);

      const { page: memberPage, chat: memberChat } = await signedInPage(browser, member);
      const workspaces = new WorkspacePage(memberPage);
      // The picker says which workspaces are the team's.
      await workspaces.choose(`${SHARED} (shared)`);
      expect(await workspaces.currentId()).toBe(sharedId);
      await memberChat.send("hello from the member");
      await memberChat.waitForReplyDone();
      const memberConversation = await memberChat.conversationId();
      await expect(memberChat.conversationItem(memberConversation)).toBeVisible();
      const stored = (await (
        await memberPage.request.get(`${app.url}/api/conversations/${memberConversation}`)
      ).json()) as { workspaceId: string };
      expect(stored.workspaceId).toBe(sharedId);
      // The member uses it and cannot change it: no Rename or Delete, and its settings are shown read-only.
      await expect(workspaces.renameButton).toBeDisabled();
      await expect(workspaces.deleteButton).toBeDisabled();
      await memberPage.goto(`${app.url}/w/${sharedId}`);
      await expect(workspaces.readOnlyNote).toBeVisible();
      await expect(workspaces.instructionsInput).toBeDisabled();
      await memberPage.goBack();

      // The admin's private conversation is in neither of the member's lists, and its URL is not theirs to open.
      await expect(memberChat.conversationItem(privateId)).toHaveCount(0);
      await workspaces.choose("default");
      await expect(memberChat.conversationList).toContainText("No conversations");
      await expect(memberChat.conversationItem(privateId)).toHaveCount(0);
      expect((await memberPage.request.get(`${app.url}/api/conversations/${privateId}`)).status()).toBe(404);
    });

    test("an error only the operator can fix names its variable to an admin and asks a member to tell them", async ({
      browser,
    }) => {
      // A model of a provider this server has no key for: the picker shows the server's refusal beside it.
      const refusalFor = async (person: typeof admin) => {
        const { page, chat } = await signedInPage(browser, person);
        await chat.send("hello");
        await chat.waitForReplyDone();
        const picker = page.getByTestId("model-picker");
        await picker.evaluate((select) => {
          const option = document.createElement("option");
          option.value = option.textContent = "openai/gpt-4o";
          select.append(option);
        });
        await picker.selectOption("openai/gpt-4o");
        const error = page.getByTestId("model-picker-error");
        await expect(error).toBeVisible();
        const text = (await error.textContent()) ?? "";
        await page.context().close();
        return text;
      };
      expect(await refusalFor(admin)).toBe(
        "Invalid model: openai/gpt-4o needs the openai provider: set OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server).",
      );
      expect(await refusalFor(member)).toBe(
        "Invalid model: openai/gpt-4o needs the openai provider, which this server is not set up for. Choose another model, or ask whoever runs this Hintline server to set it up.",
      );
    });

    test("a member reads no variable on the empty state, the workspace page or an MCP address refused; the admin reads each, axe clean", async ({
      browser,
    }) => {
      // Two people on three screens with axe in both themes: more than the default minute on a loaded machine.
      test.setTimeout(150_000);
      const screensOf = async (person: typeof admin) => {
        const { page } = await signedInPage(browser, person);
        const demo = (await page.getByTestId("empty-state").locator("p").first().textContent()) ?? "";
        // What a member sees (the text on screen, not the page's scripts) names no variable, and is axe clean.
        const seenByMember = async (screen: string) => {
          if (person !== member) return;
          await expect(page.locator("body"), screen).not.toContainText(VARIABLE_NAMES, { useInnerText: true });
          await expectAxeClean(page, screen);
        };
        await seenByMember("a member's empty state");
        await page.goto(`${app.url}/w/default`);
        const budget = (await page.getByTestId("tokens-budget-source").textContent()) ?? "";
        // This server leaves HINTLINE_MCP_ALLOW_PRIVATE unset: a server on loopback is refused for its address.
        const section = page.getByTestId("mcp-section");
        await section.getByTestId("mcp-new").click();
        const form = section.getByTestId("mcp-form");
        await form.getByTestId("mcp-name-input").fill("local");
        await form.getByTestId("mcp-url-input").fill("http://127.0.0.1:9/mcp");
        await form.getByTestId("mcp-save").click();
        await expect(form.getByTestId("mcp-error")).toBeVisible();
        const refusal = (await form.getByTestId("mcp-error").textContent()) ?? "";
        await seenByMember("a member's workspace page with the refusal");
        await page.context().close();
        return { demo, budget, refusal };
      };
      const seenByAdmin = await screensOf(admin);
      expect(seenByAdmin.demo).toContain("Set OPENAI_API_KEY or OPENAI_BASE_URL to use a real one.");
      expect(seenByAdmin.budget).toContain("The budget is HINTLINE_WORKSPACE_BUDGET, at most a quarter");
      expect(seenByAdmin.refusal).toContain("refused unless the operator sets HINTLINE_MCP_ALLOW_PRIVATE=1");

      const seenByMember = await screensOf(member);
      expect(seenByMember.demo).toContain("Whoever runs this Hintline server can connect a real one.");
      expect(seenByMember.budget).toContain("The budget is the server's setting, at most a quarter");
      expect(seenByMember.refusal).toContain(
        "127.0.0.1 is a loopback address; loopback, private and link-local addresses are refused on this server (whoever runs it can allow them)",
      );
    });

    test("a member's own skill, made from the user menu, reaches their conversation in the shared workspace and no one else's", async ({
      browser,
    }) => {
      // Two people sign in and chat: more than the default minute on a loaded machine.
      test.setTimeout(150_000);
      const { page: memberPage, chat: memberChat } = await signedInPage(browser, member);
      const menu = new UserMenu(memberPage);
      await menu.open();
      await menu.ownSkillsLink.click();
      const own = new OwnSkillsPage(memberPage);
      await expect(own.root).toBeVisible();
      await own.create({
        name: "my-tone",
        description: "Answer in Grace's own tone.",
        instructions: "Short sentences; no jargon.",
      });
      // The level is no workspace: its id opens no workspace page, for its owner either.
      const me = (await (await memberPage.request.get(`${app.url}/api/me`)).json()) as { user: { id: string } };
      await memberPage.goto(`${app.url}/w/user-${me.user.id}`);
      await expect(memberPage.getByRole("heading", { name: "Not found" })).toBeVisible();

      await memberPage.goto(`${app.url}/`);
      await memberChat.waitForHydration();
      await new WorkspacePage(memberPage).choose(`${SHARED} (shared)`);
      await memberChat.send("hello in my own tone");
      await memberChat.waitForReplyDone();
      await memberPage.getByTestId("open-inspector").click();
      const skills = memberPage.getByTestId("inspector").locator('[data-section="skills"]');
      await skills.locator("summary").click();
      await expect(skills.getByTestId("inspector-section-text")).toContainText(
        "- my-tone: Answer in Grace's own tone.",
      );

      // The admin's conversation in the same shared workspace has no skills at all.
      const { page, chat } = await signedInPage(browser, admin);
      await new WorkspacePage(page).choose(`${SHARED} (shared)`);
      await chat.send("hello from the admin in the team space");
      await chat.waitForReplyDone();
      await page.getByTestId("open-inspector").click();
      await expect(page.getByTestId("inspector").getByTestId("inspector-section").first()).toBeVisible();
      await expect(page.getByTestId("inspector").locator('[data-section="skills"]')).toHaveCount(0);
      await expect(page.getByTestId("inspector")).not.toContainText("my-tone");
    });

    test("a disabled member's open tab goes to the sign-in page on its next request, and cannot sign in again", async ({
      browser,
    }) => {
      const { page: memberPage, chat: memberChat } = await signedInPage(browser, member);
      const { page } = await signedInPage(browser, admin);
      const adminPage = new AdminPage(page, app.url);
      await adminPage.goto();
      await adminPage.setDisabled(member.email, true);

      // The member's tab still shows the chat; the next thing it asks of the server is refused, and it goes to sign in.
      const here = new URL(memberPage.url()).pathname;
      await memberChat.input.fill("are you still there?");
      await memberChat.input.press("Enter");
      await expect(memberPage).toHaveURL(`${app.url}/sign-in?next=${encodeURIComponent(here)}`);
      const forms = new AccountForms(memberPage, app.url);
      await forms.signIn(member, { goto: false });
      await expect(forms.error).toHaveText("This account is disabled; ask an admin.");

      // Enabled again, the member signs in and is back where they were.
      await adminPage.setDisabled(member.email, false);
      await forms.signIn(member, { goto: false });
      await expect(memberPage).toHaveURL(`${app.url}${here}`);
      await memberChat.waitForHydration();
    });

    test("a long unbroken name and email keep the user menu on a phone's screen", async ({ browser }) => {
      const { page } = await signedInPage(browser, admin);
      const adminPage = new AdminPage(page, app.url);
      await adminPage.goto();
      const link = await adminPage.invite();
      const long = {
        name: "W".repeat(100),
        email: `${"l".repeat(60)}@${"x".repeat(60)}.example.test`,
        password: "Long-correct-horse-battery",
      };
      const phone = await (await browser.newContext({ viewport: { width: 375, height: 740 } })).newPage();
      await new AccountForms(phone, app.url).signUp(long, link);
      await expect(new ChatPage(phone, app.url).emptyState).toBeVisible();
      await new UserMenu(phone).open();
      for (const id of ["user-menu-name", "user-menu-email"]) {
        const box = (await phone.getByTestId(id).boundingBox())!;
        expect(box.x, id).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, id).toBeLessThanOrEqual(375);
      }
      await expect(phone.getByTestId("user-menu-name")).toHaveAttribute("title", long.name);
      // The page itself does not scroll sideways.
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    });

    test("the sign-in, sign-up, admin (a member's budget set there) and own pages and the user menu are axe clean in both themes", async ({
      browser,
    }) => {
      // Five axe runs and their colours in the other theme: more than the default minute on a loaded machine.
      test.setTimeout(120_000);
      const { page } = await signedInPage(browser, admin);
      const adminPage = new AdminPage(page, app.url);
      const signedOut = await (await browser.newContext()).newPage();
      await signedOut.goto(`${app.url}/sign-in`);
      await expectAxeClean(signedOut, "sign-in");
      await new AccountForms(signedOut, app.url).signUp(stranger, "/sign-up?invitation=not-a-real-one");
      await expect(signedOut.getByTestId("auth-error")).toBeVisible();
      await expectAxeClean(signedOut, "sign-up with its error");
      await adminPage.goto();
      await adminPage.invite();
      // The member's budget, set from their row: a daily limit of 0 tokens is reached at once, and the row says so.
      await adminPage.setBudget(member.email, { tokensPerDay: "0", usdPerMonth: "2.5" });
      const usage = adminPage.userRow(member.email).getByTestId("user-usage");
      await expect(usage).toHaveAttribute("data-over", "true");
      await expect(usage.getByTestId("user-usage-day")).toContainText(/tokens of 0 · resets at 00:00 on \d+ \w+ \(/);
      await expect(usage.getByTestId("user-usage-month")).toContainText("of $2.50");
      // Saved, not only shown: a reload reads it back, and the form shows the member's own figures.
      await page.reload();
      await adminPage.userRow(member.email).getByTestId("user-edit-budget").click();
      await expect(page.getByTestId("budget-form").getByLabel("Tokens per day")).toHaveValue("0");
      await expect(page.getByTestId("budget-form").getByLabel("Dollars per month")).toHaveValue("2.5");
      await expectAxeClean(page, "admin");
      await new UserMenu(page).open();
      await expectAxeClean(page, "user menu");
      await page.keyboard.press("Escape");
      await page.goto(`${app.url}/me`);
      await expect(new OwnSkillsPage(page).root).toBeVisible();
      // The admin's own usage: no budget of theirs, none by default.
      await expect(page.getByTestId("own-usage-day")).toContainText(/^Today: [\d,]+ tokens no daily limit · resets at/);
      await expectAxeClean(page, "own skills");
    });
  });
