// The evidence ledger in the browser: after a compression the transcript's chip shows the summary, the identifiers
// kept verbatim and the dropped ones (one pinned back), and the inspector shows the ledger inside the summary message.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test("the compression chip shows the ledger and what was dropped, a dropped item can be pinned, and the inspector shows the ledger", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.send("hello");
  await chat.waitForReplyDone();
  const id = await chat.conversationId();
  expect(
    (
      await page.request.patch(`/api/conversations/${id}`, { data: { settings: { context: { contextWindow: 3000 } } } })
    ).status(),
  ).toBe(200);

  // More identifiers than the ledger's bound holds, then the ones asked about later (newest, so kept).
  const many = Array.from({ length: 40 }, (_, i) => `/srv/e2e-${i}/settings.yaml`).join(", ");
  for (const text of [
    `Note: the services read ${many}.`,
    "Note: the backup is in /var/backups/e2e/nightly.tar.gz, restore it with `make restore DB=main`, the limit is 750 MiB.",
    "write 150 words about rivers",
    "write 150 words about lakes",
    "write 100 words about hills",
  ]) {
    await chat.send(text);
    await chat.waitForReplyDone({ timeout: 30_000 });
  }
  const compact = await page.request.post(`/api/conversations/${id}/compact`);
  expect(((await compact.json()) as { compressed: boolean }).compressed).toBe(true);
  await chat.reload();

  const chip = page.getByTestId("compression-chip").last();
  await expect(chip).toContainText(/Context compressed · .* \d+ details? kept word for word/);
  await chip.getByRole("button").first().click();
  await expect(chip.getByTestId("compression-summary")).toContainText("## Task Overview");
  const ledger = chip.getByTestId("compression-ledger");
  await expect(ledger).toContainText("/var/backups/e2e/nightly.tar.gz");
  await expect(ledger).toContainText("make restore DB=main");
  await expect(ledger).toContainText("750 MiB");
  // In a person's words: what was kept, not the "Evidence ledger" of the model's summary.
  await expect(ledger.getByRole("heading")).toContainText(
    /^Kept word for word · \d+ details? \(paths, commands, figures\)/,
  );
  await expect(chip).not.toContainText(/ledger|verbatim/i);
  const dropped = chip.getByTestId("compression-dropped");
  await expect(dropped).toContainText(/Left out · \d+ details? did not fit/);
  await dropped.getByRole("button", { name: /^Pin / }).first().click();
  await expect(dropped).toContainText("Pinned · kept word for word at the next compression");
  const pins = (await (await page.request.get(`/api/conversations/${id}/compression/pins`)).json()) as {
    pending: unknown[];
  };
  expect(pins.pending).toHaveLength(1);

  await page.getByTestId("open-inspector").click();
  const summaryMessage = page.getByTestId("inspector").getByTestId("inspector-message").first();
  await expect(summaryMessage).toContainText("<conversation-summary>");
  await expect(summaryMessage).toContainText("## Evidence ledger");
  await expect(summaryMessage).toContainText("- path: /var/backups/e2e/nightly.tar.gz");
});
