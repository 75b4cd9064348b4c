// Organising conversations in the sidebar: pinning moves a conversation to the top (and the other tab's list follows),
// archiving hides it and the Archived view shows and restores it (search still finds it), and selecting two exports
// one file holding both, which imports back.
import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { OrganisePage } from "./pages/organise-page";

const tag = () => Math.random().toString(36).slice(2, 8);

test.describe("organising conversations", () => {
  // What each test made goes again (pinned rows would head other tests' lists: the database is shared).
  const made: OrganisePage[] = [];
  const pageObject = (page: Page): OrganisePage => {
    const organise = new OrganisePage(page);
    made.push(organise);
    return organise;
  };
  test.afterEach(async () => {
    for (const organise of made.splice(0)) await organise.removeImported();
  });

  test("pinning moves a conversation to the top, in this tab and the other one, and unpinning puts it back", async ({
    page,
    context,
  }) => {
    const organise = pageObject(page);
    const t = tag();
    const old = await organise.importConversation(`pin-old-${t}`, `Oldest ${t}`);
    const recent = await organise.importConversation(`pin-new-${t}`, `Newest ${t}`);
    await organise.chat.gotoConversation(recent);
    const other = new OrganisePage(await context.newPage());
    await other.chat.gotoConversation(recent);

    const before = await organise.ids();
    expect(before.indexOf(recent)).toBeLessThan(before.indexOf(old));
    await organise.pin(old);
    expect((await organise.ids())[0]).toBe(old);
    await expect(organise.pinnedSection.getByRole("heading")).toHaveText("Pinned");
    // The other tab hears of it (/api/events) and lists it first too.
    await expect.poll(async () => (await other.ids())[0]).toBe(old);
    await expect(other.pinnedSection.locator(`[data-conversation-id="${old}"]`)).toBeVisible();

    await (await organise.openMenu(old)).getByTestId("pin-button").filter({ hasText: "Unpin" }).click();
    await expect(organise.pinnedSection).toHaveCount(0);
    await expect
      .poll(async () => (await organise.ids()).indexOf(old))
      .toBeGreaterThan((await organise.ids()).indexOf(recent));
    await expect(other.pinnedSection).toHaveCount(0);
  });

  test("archiving hides a conversation; the Archived view shows it and restores it; search still finds it", async ({
    page,
  }) => {
    const organise = pageObject(page);
    const t = tag();
    const id = await organise.importConversation(`arch-${t}`, `Archive me ${t}`);
    await organise.chat.gotoConversation(id);
    await expect(organise.row(id)).toBeVisible();

    await organise.toggleArchived(id);
    // Searched for, it is found and said to be archived.
    const search = page.getByRole("searchbox", { name: "Search conversations" }).filter({ visible: true });
    await search.fill(`Archive me ${t}`);
    const result = page.locator(`[data-testid="search-result"][data-conversation-id="${id}"]`);
    await expect(result).toBeVisible();
    await expect(result.getByTestId("search-archived")).toHaveText("Archived");
    await search.fill("");

    await organise.showArchived(true);
    await expect(organise.row(id)).toBeVisible();
    await expect(organise.list).toHaveAttribute("aria-label", "Archived conversations");
    await organise.toggleArchived(id); // Unarchive
    await expect(organise.list.getByText("No archived conversations in this workspace.")).toBeVisible();
    await organise.showArchived(false);
    await expect(organise.row(id)).toBeVisible();
    // Reloaded, it stays where it is.
    await organise.chat.reload();
    await expect(organise.row(id)).toBeVisible();
  });

  test("selecting two conversations exports one file holding both, which imports back", async ({ page }, testInfo) => {
    const organise = pageObject(page);
    const t = tag();
    const a = await organise.importConversation(`exp-a-${t}`, `Export A ${t}`);
    const b = await organise.importConversation(`exp-b-${t}`, `Export B ${t}`);
    await organise.chat.gotoConversation(b);

    const download = await organise.exportSelected([a, b]);
    expect(download.suggestedFilename()).toMatch(/^hintline-2-conversations-\d{4}-\d{2}-\d{2}\.json$/);
    const file = testInfo.outputPath("bundle.json");
    await download.saveAs(file);
    const bundle = JSON.parse(await readFile(file, "utf8")) as {
      version: number;
      conversations: Array<{ id: string; title: string; messages: unknown[] }>;
    };
    expect(bundle.version).toBe(1);
    expect(bundle.conversations.map((c) => [c.id, c.title, c.messages.length]).sort()).toEqual(
      [
        [a, `Export A ${t}`, 2],
        [b, `Export B ${t}`, 2],
      ].sort(),
    );
    // Selection mode is over; the rows are links again.
    await expect(organise.row(a).getByRole("link")).toBeVisible();

    // The file imports back: two copies, the first opened.
    const choosing = page.waitForEvent("filechooser");
    await page.getByTestId("import-button").filter({ visible: true }).click();
    await (await choosing).setFiles(file);
    await expect(page).not.toHaveURL(new RegExp(`/c/(${a}|${b})$`));
    await expect(organise.chat.conversationItemByTitle(`Export A ${t}`)).toHaveCount(2);
    await expect(organise.chat.conversationItemByTitle(`Export B ${t}`)).toHaveCount(2);
  });

  test("on a phone the row menu and the toolbar fit, and choosing from the menu keeps the drawer open", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    const organise = pageObject(page);
    const t = tag();
    const id = await organise.importConversation(
      `phone-${t}`,
      `A conversation with a rather long title that must be cut ${t}`,
    );
    await organise.chat.gotoConversation(id);
    await organise.chat.menuButton.click();
    await expect(organise.chat.drawer).toBeVisible();
    const row = organise.row(id);
    // The title's text ends before the row's buttons begin (it is cut, not overlaid), all inside the row.
    const text = await row.getByRole("link").evaluate((link) => {
      const rect = link.getBoundingClientRect();
      return {
        right: rect.right - Number.parseFloat(getComputedStyle(link).paddingRight),
        cut: link.scrollWidth > link.clientWidth,
        width: rect.width,
      };
    });
    expect(text.cut).toBe(true);
    const first = (await row.getByTestId("rename-button").boundingBox())!;
    const last = (await row.getByTestId("delete-button").boundingBox())!;
    const rowBox = (await row.boundingBox())!;
    expect(text.right).toBeLessThanOrEqual(first.x + 0.5);
    expect(last.x + last.width).toBeLessThanOrEqual(rowBox.x + rowBox.width);
    expect(text.right - rowBox.x).toBeGreaterThan(150);
    await organise.pin(id);
    await expect(organise.chat.drawer).toBeVisible();
    const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });
});
