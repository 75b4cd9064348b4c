// A restart under a browser tab: the server gets SIGTERM while it writes a reply (the demo model, a word every 50 ms,
// a 300 ms grace). On SQLite the reply is handed over, not settled: the tab says it goes on when the server is back,
// and once the server is back (same port, same database) the reply goes on by itself in the same tab — redone from
// its last finished step, its text not doubled, marked "resumed after a restart".
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { type AppProcess, migrateDatabase, startApp } from "./support/app-process";

const PORT = (Number(process.env.HINTLINE_E2E_PORT_BASE) || 3400) + 5;
const words = (text: string): string[] => text.trim().split(/\s+/).filter(Boolean);

test.describe("restarts", () => {
  let app: AppProcess | undefined;
  test.afterEach(() => {
    app?.child.kill("SIGKILL");
  });

  test("a reply cut by a restart says so, and goes on by itself once the server is back", async ({ page }) => {
    // Two server starts and a 300-word reply: minutes on a loaded machine.
    test.setTimeout(150_000);
    const databaseUrl = `file:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hintline-e2e-restart-")), "app.db")}`;
    migrateDatabase(databaseUrl);
    const env = { HINTLINE_DEMO_WORD_DELAY_MS: "50", HINTLINE_SHUTDOWN_GRACE_MS: "300" };
    app = await startApp({ port: PORT, databaseUrl, env });
    const chat = new ChatPage(page, app.url);
    await chat.gotoNewChat();
    await chat.send("write 300 words about rivers");
    await expect.poll(async () => words(await chat.replyText()).length).toBeGreaterThanOrEqual(5);

    expect(await app.terminate()).toBe(0);
    const reply = chat.lastAssistant();
    await expect(reply).toHaveAttribute("data-status", "incomplete");
    await expect(reply.getByTestId("message-incomplete")).toHaveText(
      "The server is restarting; the reply goes on when it is back.",
    );
    expect(words(await chat.replyText(reply)).length).toBeLessThan(300);

    app = await startApp({ port: PORT, databaseUrl, env: { HINTLINE_DEMO_WORD_DELAY_MS: "1" } });
    // No click: the tab hears the server again and follows the reply it resumed.
    await expect(chat.lastAssistant()).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
    await expect(chat.lastAssistant().getByTestId("resumed-note")).toContainText("The reply resumed after a restart");
    expect(words(await chat.replyText(chat.lastAssistant()))).toHaveLength(300);
    await expect(chat.assistantMessages).toHaveCount(1);
  });
});
