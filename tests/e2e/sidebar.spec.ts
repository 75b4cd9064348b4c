// The sidebar around the conversation list: search over titles and message text (one workspace or all, attachments'
// text too, snippets in plain text), date groups, export and import.
import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { OrganisePage } from "./pages/organise-page";
import { WorkspacePage } from "./pages/workspace-page";
import { expectAxeClean } from "./support/axe";

/** A short tag that keeps this test's conversations apart from the ones other tests made in the same database. */
const uniqueTag = () => Math.random().toString(36).slice(2, 8);

async function createConversation(chat: ChatPage, ...texts: string[]): Promise<string> {
  await chat.gotoNewChat();
  for (const text of texts) {
    await chat.send(text);
    await chat.waitForReplyDone();
  }
  const id = await chat.conversationId();
  await expect(chat.conversationItem(id)).toBeVisible();
  return id;
}

const ZONE = "America/New_York";
const searchBox = (page: Page) =>
  page.getByRole("searchbox", { name: "Search conversations" }).filter({ visible: true });

test.describe("sidebar", () => {
  test("search finds titles and message text, marks the words, says when nothing matches, and clears", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    const tag = uniqueTag();
    const withWord = await createConversation(chat, `first note ${tag}`, `the capybara${tag} swims across the river`);
    const other = await createConversation(chat, `second note ${tag}`);

    const searches: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/conversations?") && r.url().includes("q="))
        searches.push(new URL(r.url()).searchParams.get("q") ?? "");
    });
    // Typed quickly, the words are asked for once (the box waits ~200 ms after the last key).
    await searchBox(page).pressSequentially(`capybara${tag.slice(0, 3)}`, { delay: 20 });
    const results = page.getByTestId("search-result");
    await expect(results).toHaveCount(1);
    await expect(page.getByTestId("search-status").filter({ visible: true })).toHaveText("1 conversation matches.");
    expect(searches).toEqual([`capybara${tag.slice(0, 3)}`]);
    await expect(chat.conversationList).toHaveCount(0);
    await expect(results.first()).toHaveAttribute("data-conversation-id", withWord);
    // The last word matches as a prefix; the mark covers the whole matched word of the snippet.
    await expect(results.first().getByTestId("search-snippet")).toContainText(`the capybara${tag} swims`);
    await expect(results.first().getByTestId("search-snippet").locator("mark")).toHaveText([`capybara${tag}`]);

    // A title match: both conversations, newest first, the word marked in the title.
    await searchBox(page).fill(`note ${tag}`);
    await expect(results).toHaveCount(2);
    await expect(results.nth(0)).toHaveAttribute("data-conversation-id", other);
    // (The title may be the generated one, title-cased: the marks follow its case.)
    await expect(results.nth(0).locator("mark")).toHaveText([/^note$/i, new RegExp(`^${tag}$`, "i")]);

    await searchBox(page).fill(`zebra${tag}`);
    await expect(page.getByTestId("search-status").filter({ visible: true })).toHaveText(
      `No conversations match “zebra${tag}”.`,
    );
    await expect(results).toHaveCount(0);

    // Esc clears the box and brings the list back; so does the clear button.
    await searchBox(page).press("Escape");
    await expect(searchBox(page)).toHaveValue("");
    await expect(chat.conversationItem(other)).toBeVisible();
    await searchBox(page).fill(`capybara${tag}`);
    await expect(results).toHaveCount(1);
    await page.getByRole("button", { name: "Clear search" }).filter({ visible: true }).click();
    await expect(chat.conversationItem(withWord)).toBeVisible();

    // Following a message match opens that conversation.
    await searchBox(page).fill(`capybara${tag}`);
    await results.first().getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/c/${withWord}$`));
    await expect(chat.userMessages.last()).toContainText(`the capybara${tag} swims`);
  });

  test("All workspaces finds a conversation of another workspace by its attachment's text, names the workspace, and opening it switches there", async ({
    page,
  }) => {
    const tag = uniqueTag();
    const name = `Trips ${tag}`;
    const created = await page.request.post("/api/workspaces", { data: { name } });
    expect(created.status()).toBe(201);
    const workspaceId = ((await created.json()) as { id: string }).id;
    const say = async (id: string, text: string, files: object[] = [], where?: string) => {
      const message = { id: `${id}-${text.length}`, role: "user", parts: [...files, { type: "text", text }] };
      const sent = await page.request.post("/api/chat", { data: { id, message, workspaceId: where } });
      expect(sent.status()).toBe(200);
      await sent.body(); // the reply, to its end
    };
    const list = `Tent\nquokka${tag} food`;
    const file = {
      type: "file",
      mediaType: "text/plain",
      filename: "list.txt",
      url: `data:text/plain;base64,${Buffer.from(list).toString("base64")}`,
    };
    await say(`trip-${tag}`, `packing ${tag}`, [file], workspaceId);
    // (Its title is made from the first message: the second is found by its text, with a snippet.)
    await say(`walrus-${tag}`, "Marine notes");
    await say(`walrus-${tag}`, `## Walrus ${tag}\n\n- **Tusks** grow \`long\`, see [the page](https://example.com/w)`);

    const chat = new ChatPage(page);
    const ws = new WorkspacePage(page);
    await chat.gotoNewChat();
    expect(await ws.currentId()).toBe("default");
    const results = page.getByTestId("search-result");
    const status = page.getByTestId("search-status").filter({ visible: true });
    await searchBox(page).fill(`quokka${tag}`);
    await expect(status).toHaveText(`No conversations match “quokka${tag}”.`);

    // All workspaces: the text inside the attachment is found, the result names its workspace.
    await page.getByRole("checkbox", { name: "All workspaces" }).filter({ visible: true }).check();
    await expect(results).toHaveCount(1);
    await expect(status).toHaveText("1 conversation matches.");
    await expect(results.first().getByTestId("search-workspace")).toHaveText(`in ${name}`);
    await expect(results.first().getByTestId("search-snippet")).toContainText(`list.txt: Tent quokka${tag} food`);

    // Two matches, and a snippet in plain text: no markdown's marks, a link as its words.
    await searchBox(page).fill(tag);
    await expect(results).toHaveCount(2);
    await expect(status).toHaveText("2 conversations match.");
    await searchBox(page).fill(`tusks ${tag}`);
    await expect(results).toHaveCount(1);
    const snippet = results.first().getByTestId("search-snippet");
    await expect(snippet).toContainText("Tusks grow long, see the page");
    for (const mark of ["**", "`", "](", "- "]) await expect(snippet).not.toContainText(mark);
    await expect(results.first().getByTestId("search-workspace")).toHaveCount(0); // this workspace's own
    await searchBox(page).fill(`quokka${tag}`);
    await expect(results).toHaveCount(1);
    await expectAxeClean(page, "search in all workspaces");

    // Opening it switches to its workspace.
    await results.first().getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/c/trip-${tag}$`));
    await expect.poll(() => ws.currentId()).toBe(workspaceId);
  });

  test("the search box takes no more than the search does (200 characters) and finds Chinese in the middle of a message", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    const tag = uniqueTag();
    const id = await createConversation(chat, `travel ${tag}`, `我们明天去北京${tag}旅游然后去上海`);
    await searchBox(page).fill(`上海 ${tag}`);
    const results = page.getByTestId("search-result");
    await expect(results).toHaveCount(1);
    await expect(results.first().getByRole("link")).toHaveAttribute("href", `/c/${id}`);
    await expect(results.first().getByTestId("search-snippet").locator("mark")).toHaveText([tag, "上海"]);

    await searchBox(page).fill("");
    // 300 characters typed: the box keeps 200, which the search accepts (it used to take 500 and show the API's refusal).
    const typed = `q${tag} ${"wxyz ".repeat(60)}`;
    await searchBox(page).fill(typed);
    await expect(searchBox(page)).toHaveValue(typed.slice(0, 200));
    await expect(page.getByTestId("search-status").filter({ visible: true })).toHaveText(
      `No conversations match “${typed.slice(0, 200).trim()}”.`,
    );
  });

  test("a conversation exported from its row imports as a copy that opens with the same messages", async ({
    page,
  }, testInfo) => {
    const chat = new ChatPage(page);
    const tag = uniqueTag();
    const id = await createConversation(chat, `export me ${tag}`, `and this second line ${tag}`);
    const userTexts = await chat.userMessages.allTextContents();
    const replyTexts = await chat.assistantMessages.locator(".prose-chat").allTextContents();

    // Export is in the row's menu (with pin and archive).
    const downloading = page.waitForEvent("download");
    await new OrganisePage(page).choose(id, "export-button");
    const download = await downloading;
    // Named after the conversation's title (the generated one, e.g. "Export 1a2b3c", once the first reply is in).
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^hintline-export-(me-)?${tag}-\\d{4}-\\d{2}-\\d{2}\\.json$`),
    );
    const file = testInfo.outputPath("export.json");
    await download.saveAs(file);
    const exported = JSON.parse(await readFile(file, "utf8")) as {
      version: number;
      conversation: { id: string; messages: unknown[] };
    };
    expect(exported.version).toBe(1);
    expect(exported.conversation.messages).toHaveLength(4);

    const choosing = page.waitForEvent("filechooser");
    await page.getByTestId("import-button").filter({ visible: true }).click();
    await (await choosing).setFiles(file);
    await expect(page).not.toHaveURL(new RegExp(`/c/${id}$`));
    const copy = await chat.conversationId();
    expect(copy).not.toBe(id);
    await expect(chat.userMessages).toHaveText(userTexts);
    await expect(chat.assistantMessages.locator(".prose-chat")).toHaveText(replyTexts);
    await expect(chat.conversationItem(copy)).toBeVisible();

    // A file the import refuses: the server's reason, in words.
    const bad = testInfo.outputPath("bad.json");
    const { writeFile } = await import("node:fs/promises");
    await writeFile(bad, JSON.stringify({ version: 2, conversation: { messages: [] } }));
    const choosingBad = page.waitForEvent("filechooser");
    await page.getByTestId("import-button").filter({ visible: true }).click();
    await (await choosingBad).setFiles(bad);
    await expect(page.getByTestId("import-error").filter({ visible: true })).toContainText(
      "Could not import bad.json:",
    );
    await expect(page.getByTestId("import-error").filter({ visible: true })).toContainText("version");
    await expect(page).toHaveURL(new RegExp(`/c/${copy}$`));
  });
});

// A zone other than the machine's (UTC), so that the groups follow the browser's calendar.
test.describe("sidebar date groups", () => {
  test.use({ timezoneId: ZONE });

  test("the list is grouped by the day of the last change, in the browser's zone, under h3 headings", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    const tag = uniqueTag();
    const a = await createConversation(chat, `grouped one ${tag}`);
    const b = await createConversation(chat, `grouped two ${tag}`);
    const listed = (await (await page.request.get("/api/conversations?workspaceId=default")).json()) as {
      id: string;
      updatedAt: string;
    }[];
    const updatedAt = new Date(listed.find((c) => c.id === b)?.updatedAt ?? "").getTime();
    const day = 24 * 60 * 60 * 1000;
    const groupOf = (id: string) =>
      chat.conversationList
        .getByTestId("date-group")
        .filter({ has: page.locator(`[data-conversation-id="${id}"]`) })
        .getByRole("heading", { level: 3 });

    await expect(groupOf(a)).toHaveText("Today");
    await expect(groupOf(b)).toHaveText("Today");
    // The browser's clock moved on: the same conversations, seen later.
    const cases: [number, string][] = [
      [1, "Yesterday"],
      [4, "Previous 7 days"],
      [20, "Previous 30 days"],
      [60, new Date(updatedAt).toLocaleDateString("en-US", { month: "long", year: "numeric", timeZone: ZONE })],
    ];
    for (const [days, label] of cases) {
      await page.clock.setFixedTime(new Date(updatedAt + days * day));
      await chat.gotoNewChat();
      await expect(groupOf(b), `${days} days later`).toHaveText(label);
      await expect(groupOf(a)).toHaveText(label);
      // One heading per group: the two conversations share theirs.
      await expect(chat.conversationList.getByRole("heading", { level: 3, name: label })).toHaveCount(1);
    }
  });
});
