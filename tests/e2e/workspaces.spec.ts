// Workspaces in the browser: the switcher filters the conversation list and new chats start in the chosen
// workspace; creating or choosing one while a conversation of another is open leaves it for a new chat there; knowledge files are uploaded by the picker and by drag and drop and the agent reads them; memory is
// added, edited and deleted in the settings view, and an entry the agent writes shows with author "agent".
import { expect, test } from "@playwright/test";
import { tinyPdf } from "../support/tiny-pdf";
import { ChatPage } from "./pages/chat-page";
import { WorkspacePage } from "./pages/workspace-page";

/** A short tag that keeps this test's workspaces and conversations apart from other tests' in the same database. */
const uniqueTag = () => Math.random().toString(36).slice(2, 8);

test.describe("workspaces", () => {
  test("a conversation started in a workspace reads a knowledge file uploaded by the picker or by drag and drop", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    const ws = new WorkspacePage(page);
    const tag = uniqueTag();
    const name = `Trails ${tag}`;
    await chat.gotoNewChat();
    expect(await ws.currentId()).toBe("default");
    const id = await ws.create(name);
    expect(id).toMatch(/^ws_/);
    await expect(chat.conversationList).toContainText("No conversations in this workspace yet.");

    // Settings: one file by the picker, one by a drop; a damaged PDF is refused in words, a PDF with text is kept as its text.
    await ws.switcher.getByTestId("workspace-settings-link").click();
    await expect(ws.settings).toHaveAttribute("data-workspace-id", id);
    await expect(page.getByTestId("knowledge-accepted")).toContainText(
      "and PDFs (up to 8 MiB; their text is kept). Images and other binary files are not supported",
    );
    const guide = `guide-${tag}.md`;
    await ws.uploadByPicker([
      {
        name: guide,
        content: `# Field guide ${tag}\n\nAlways wear a helmet on the ${tag} trail.\nCarry two litres of water.\n`,
        mimeType: "text/markdown",
      },
    ]);
    await expect(ws.knowledgeFile(guide)).toBeVisible();
    await expect(ws.knowledgeFile(guide)).toContainText(/\d+ B · \d+ tokens · updated/);
    const notes = `notes-${tag}.txt`;
    await ws.uploadByDrop([{ name: notes, content: `Dropped notes for ${tag}: the ranger station opens at 7.\n` }]);
    await expect(ws.knowledgeFile(notes)).toBeVisible();
    await ws.uploadByDrop([{ name: "map.pdf", content: "%PDF-1.7 binary", mimeType: "application/pdf" }]);
    await expect(ws.knowledgeError).toContainText("“map.pdf” was not saved: map.pdf could not be read as a PDF");
    await expect(ws.knowledgeFiles).toHaveCount(2);
    await ws.knowledgeFile(notes).getByTestId("knowledge-view").click();
    await expect(ws.knowledgeFile(notes).getByTestId("knowledge-content")).toHaveText(
      `Dropped notes for ${tag}: the ranger station opens at 7.\n`,
    );
    await expect(page.getByTestId("tokens-knowledge")).not.toHaveText("0");
    const pdf = `trail-map-${tag}.pdf`;
    await ws.uploadByPicker([
      {
        name: pdf,
        content: tinyPdf([`Trail map ${tag}: the north loop is closed.`, "Page two"]).toString("latin1"),
        mimeType: "application/pdf",
      },
    ]);
    await expect(ws.knowledgeFile(pdf)).toBeVisible();
    await ws.knowledgeFile(pdf).getByTestId("knowledge-view").click();
    await expect(ws.knowledgeFile(pdf).getByTestId("knowledge-content")).toContainText(
      `Text extracted from the PDF "${pdf}" (2 pages):`,
    );
    await expect(ws.knowledgeFile(pdf).getByTestId("knowledge-content")).toContainText(
      `Trail map ${tag}: the north loop is closed.`,
    );

    // A new chat starts in the workspace; the agent reads the file and quotes it.
    await chat.newChatLink.click();
    await expect(chat.emptyState).toBeVisible();
    await chat.send(`read ${guide}`);
    await chat.waitForReplyDone();
    const conversation = await chat.conversationId();
    const row = page.locator('[data-testid="tool-row"][data-tool="KnowledgeRead"]');
    await expect(row.getByTestId("tool-summary")).toHaveText(`Read ${guide} · lines 1–4`);
    expect(await chat.replyText()).toContain(`Always wear a helmet on the ${tag} trail.`);
    await expect(chat.conversationItem(conversation)).toBeVisible();
    const stored = await (await page.request.get(`/api/conversations?workspaceId=${id}`)).json();
    expect(stored.map((c: { id: string }) => c.id)).toEqual([conversation]);

    // The list shows the chosen workspace's conversations only; the choice survives a reload; opening the
    // conversation by URL switches back to its workspace.
    await ws.choose("default");
    await expect(chat.emptyState).toBeVisible();
    await expect(chat.conversationItem(conversation)).toHaveCount(0);
    await chat.reload();
    expect(await ws.currentId()).toBe("default");
    await chat.gotoConversation(conversation);
    await expect(ws.select.locator("option:checked")).toHaveText(name);
    await expect(chat.conversationItem(conversation)).toBeVisible();
    await chat.gotoNewChat();
    expect(await ws.currentId()).toBe(id);

    // A workspace with conversations is not deleted; why is said before anything is asked.
    await ws.switcher.getByTestId("workspace-delete").click();
    await expect(ws.switcher.getByTestId("workspace-delete-blocked")).toHaveText(
      `The workspace “${name}” still has 1 conversation. Delete it first; then the workspace can be deleted.`,
    );
    expect(await ws.currentId()).toBe(id);
    expect((await page.request.get(`/api/workspaces/${id}`)).status()).toBe(200);
  });

  test("a workspace created or chosen while a conversation of another is open takes over the screen, and the next message goes to it", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    const ws = new WorkspacePage(page);
    const tag = uniqueTag();
    type View = { workspaceId: string; messages: unknown[] };
    const viewOf = async (id: string) => (await (await page.request.get(`/api/conversations/${id}`)).json()) as View;

    // A conversation started on this page in default, with tasks and in plan mode.
    await chat.gotoNewChat();
    expect(await ws.currentId()).toBe("default");
    await chat.send("add tasks: pack the boxes; book a van");
    await chat.waitForReplyDone();
    const old = await chat.conversationId();
    await expect(chat.taskItems).toHaveCount(2);
    await chat.modeToggle.click();
    await expect(chat.planBanner).toBeVisible();

    // Creating a workspace leaves it for a new, empty chat in the new workspace.
    const id = await ws.create(`Takeover ${tag}`);
    await expect(page).not.toHaveURL(new RegExp(`/c/${old}$`));
    await expect(chat.emptyState).toBeVisible();
    await expect(chat.userMessages).toHaveCount(0);
    await expect(chat.taskPanel.getByTestId("task-count")).toHaveText("0/0 done");
    await expect(chat.planBanner).toBeHidden();
    await expect(chat.modeToggle).toHaveAttribute("data-mode", "build");
    expect(await ws.currentId()).toBe(id);

    // The next message starts a conversation of the new workspace, and the URL names it; the old one is untouched.
    await chat.send("hello");
    await chat.waitForReplyDone();
    const fresh = await chat.conversationId();
    expect(fresh).not.toBe(old);
    expect((await viewOf(fresh)).workspaceId).toBe(id);
    expect(await viewOf(old)).toMatchObject({ workspaceId: "default", messages: [{}, {}] });
    await expect(chat.conversationItem(fresh)).toBeVisible();

    // Choosing another workspace does the same.
    await ws.choose("default");
    await expect(page).not.toHaveURL(new RegExp(`/c/${fresh}$`));
    await expect(chat.emptyState).toBeVisible();
    await chat.send("hello again");
    await chat.waitForReplyDone();
    expect((await viewOf(await chat.conversationId())).workspaceId).toBe("default");
    expect((await viewOf(fresh)).messages).toHaveLength(2);
  });

  test("memory is added, edited and deleted in the settings view, and the agent's entry shows as written by the agent", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    const ws = new WorkspacePage(page);
    const tag = uniqueTag();
    await chat.gotoNewChat();
    const id = await ws.create(`Memory ${tag}`);
    await ws.gotoSettings(id);
    await ws.addMemory(`Likes green tea ${tag}`);
    await expect(ws.memoryEntry(`Likes green tea ${tag}`).getByTestId("memory-author")).toHaveText("you");
    await ws.editMemory(`Likes green tea ${tag}`, `Likes jasmine tea ${tag}`);
    await expect(page.getByTestId("tokens-memory")).not.toHaveText("0");
    await ws.deleteMemory(`Likes jasmine tea ${tag}`);
    await expect(ws.memoryEntries).toHaveCount(0);
    await expect(page.getByTestId("tokens-memory")).toHaveText("0");

    await chat.gotoNewChat();
    await chat.send("remember that I prefer metric units");
    await chat.waitForReplyDone();
    await expect(
      page.locator('[data-testid="tool-row"][data-tool="MemoryWrite"]').getByTestId("tool-summary"),
    ).toHaveText("Remembered: Prefers metric units");
    expect(await chat.replyText()).toBe("Got it — I'll remember: Prefers metric units.");

    await ws.gotoSettings(id);
    await expect(ws.memoryEntries).toHaveCount(1);
    await expect(ws.memoryEntry("Prefers metric units")).toHaveAttribute("data-author", "agent");
    await expect(ws.memoryEntry("Prefers metric units").getByTestId("memory-author")).toHaveText("agent");
  });

  test("a skill named in words, like Packing List, is saved under the id made from its name", async ({ page }) => {
    const chat = new ChatPage(page);
    const ws = new WorkspacePage(page);
    await chat.gotoNewChat();
    const id = await ws.create(`Skills ${uniqueTag()}`);
    await ws.gotoSettings(id);
    await page.getByTestId("skill-new").click();
    const form = page.getByTestId("skill-form");
    await form.getByTestId("skill-name-input").fill("Packing List");
    await expect(form.getByTestId("skill-slug")).toHaveText("The agent loads it as packing-list");
    await form.getByTestId("skill-description-input").fill("Use when packing for a move");
    await form.getByTestId("skill-instructions-input").fill("List boxes by room.");
    await form.getByTestId("skill-save").click();
    await expect(page.getByTestId("skill-error")).toHaveCount(0);
    await expect(page.locator('[data-testid="skill-item"][data-name="packing-list"]')).toBeVisible();
    // A name with nothing to make an id from is refused in words.
    await page.getByTestId("skill-new").click();
    await form.getByTestId("skill-name-input").fill("!!!");
    await form.getByTestId("skill-description-input").fill("x");
    await form.getByTestId("skill-instructions-input").fill("y");
    await form.getByTestId("skill-save").click();
    await expect(page.getByTestId("skill-error")).toHaveText(
      "Give the skill a name with at least one letter or digit (a–z, 0–9).",
    );
  });

  test("warns when the instructions alone exceed the budget worked out for the model's window, and stops when they fit", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    const ws = new WorkspacePage(page);
    const tag = uniqueTag();
    await chat.gotoNewChat();
    const id = await ws.create(`Budget ${tag}`);
    await ws.gotoSettings(id);
    await expect(ws.instructionsOverBudget).toHaveCount(0);
    // The demo model's window is 8,192 tokens: the budget is min(8,000, 8,192 / 4) = 2,048.
    await expect(page.getByTestId("tokens-budget")).toHaveText("2,048");
    await expect(page.getByTestId("tokens-window")).toHaveText("8,192");
    const long = Array.from({ length: 400 }, (_, i) => `Rule ${i}: answer in full sentences.`).join("\n");
    await ws.saveInstructions(long);
    await expect(ws.instructionsOverBudget).toBeVisible();
    await expect(ws.instructionsOverBudget).toContainText(
      "more than the budget of 2,048 tokens worked out for a 8,192-token window",
    );
    await expect(ws.instructionsOverBudget).toContainText("InstructionsRead");
    const tokens = Number((await page.getByTestId("tokens-instructions").textContent())?.replace(/,/g, ""));
    expect(tokens).toBeGreaterThan(2_048);
    await ws.saveInstructions("Answer in full sentences.");
    await expect(ws.instructionsOverBudget).toHaveCount(0);
  });

  test("the switcher works from the drawer at phone width", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const chat = new ChatPage(page);
    const ws = new WorkspacePage(page);
    const tag = uniqueTag();
    await chat.gotoNewChat();
    await chat.menuButton.click();
    await expect(chat.drawer).toBeVisible();
    const id = await ws.create(`Phone ${tag}`);
    await ws.renameCurrent(`Phone renamed ${tag}`);
    await expect(ws.select.locator("option:checked")).toHaveText(`Phone renamed ${tag}`);
    await ws.deleteCurrent();
    await expect(ws.select.locator("option:checked")).toHaveText("default");
    expect((await page.request.get(`/api/workspaces/${id}`)).status()).toBe(404);
  });
});
