// The context meter and compression in the browser, on the demo model with a small window for this conversation (room
// for the fixed part — the system prompt and the tools, in brief at this window: about 1.3k tokens — and a few turns).
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectAxeClean } from "./support/axe";

test("the meter rises, the context hint appears, compression happens with its chip, and the meter drops", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.send("hello");
  await chat.waitForReplyDone();
  const id = await chat.conversationId();
  const patch = await page.request.patch(`/api/conversations/${id}`, {
    data: { settings: { context: { contextWindow: 6000 } } },
  });
  expect(patch.status()).toBe(200);
  await chat.reload();

  const meter = page.getByTestId("context-meter").filter({ visible: true });
  const tokens = async () => Number(await meter.getAttribute("data-tokens"));
  const before = await tokens();
  await expect(meter.getByTestId("meter-label")).toContainText("/ 6.0k");

  let compressed = false;
  const seen: number[] = [before];
  for (let turn = 0; turn < 8 && !compressed; turn++) {
    await chat.send("write 450 words about rivers");
    await chat.waitForReplyDone({ timeout: 30_000 });
    seen.push(await tokens());
    compressed = (await chat.lastAssistant().getByTestId("compression-chip").count()) > 0;
  }
  expect(compressed).toBe(true);
  // The meter rose before the compression and dropped with it.
  expect(Math.max(...seen.slice(0, -1))).toBeGreaterThan(before);
  expect(seen.at(-1)!).toBeLessThan(Math.max(...seen.slice(0, -1)));
  // A context-usage hint warned before the trigger was reached.
  await expect(page.locator('[data-testid="hint-chip"] [data-kind="context"]').first()).toBeVisible();

  const chip = chat.lastAssistant().getByTestId("compression-chip");
  await expect(chip).toContainText(/Context compressed · [\d.]+k? → [\d.]+k? tokens/);
  await chip.getByRole("button").click();
  await expect(chip.getByTestId("compression-summary")).toContainText("## Task Overview");
  // A fresh time hint follows the compression, and the visible history is intact: every message kept (counted in the
  // stored view: the transcript is virtualised) and the first one reached by scrolling up.
  await expect(chat.lastAssistant().locator('[data-testid="hint-chip"] [data-kind="time"]')).toHaveCount(1);
  const view = (await (await page.request.get(`/api/conversations/${id}`)).json()) as { messages: { role: string }[] };
  expect(view.messages.filter((m) => m.role === "user")).toHaveLength(seen.length);
  await expect
    .poll(async () => {
      await chat.messageList.evaluate((el) => {
        el.scrollTop = 0;
      });
      return chat.userMessages.first().textContent();
    })
    .toBe("hello");

  // The breakdown is one click away.
  await meter.getByRole("button").first().click();
  await expect(meter.getByTestId("meter-details")).toContainText("Summary");
  // The fixed part is a band of its own, and said in words: at most 35 % of the window (issue 46).
  const fixed = Number(await meter.getByTestId("meter-fixed").getAttribute("data-tokens"));
  expect(fixed).toBeGreaterThan(0);
  expect(fixed).toBeLessThanOrEqual(0.35 * 6000);
  await expect(meter.getByTestId("meter-fixed-part")).toContainText(
    `Fixed part (system prompt and tools): ${fixed.toLocaleString("en-US")} tokens`,
  );
});

test("on a 4,096 window, compression never comes turn after turn and the person is told once what fills the window", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.send("hello");
  await chat.waitForReplyDone();
  const id = await chat.conversationId();
  type View = {
    contextUsage: { breakdown: Record<string, number> };
    messages: { parts: { type: string; data?: { stuck?: unknown } }[] }[];
  };
  const view = async () => (await (await page.request.get(`/api/conversations/${id}`)).json()) as View;
  const patch = async (settings: unknown) =>
    expect((await page.request.patch(`/api/conversations/${id}`, { data: { settings } })).status()).toBe(200);
  await patch({ context: { contextWindow: 4096 }, prompt: { base: "Be brief." } });
  /**
   * A base prompt that makes the fixed part (system prompt and tools) about `fixed` tokens: measured and topped up, as
   * the tools and sections chosen for the window change with the base prompt's size (lib/chat/fixed-part.ts).
   */
  const fixedPart = async (fixed: number) => {
    let words = 0;
    for (let round = 0; round < 4; round++) {
      const { system, tools } = (await view()).contextUsage.breakdown;
      const missing = fixed - system! - tools!;
      if (Math.abs(missing) <= 12) break;
      words = Math.max(0, words + Math.round(missing / 2));
      const filler = Array.from({ length: words }, (_, i) => `b${i % 7}`);
      await patch({ prompt: { base: `Be brief. ${filler.join(" ")}` } });
    }
    await chat.reload();
  };
  let told = 0;
  /** Turns of 120-word replies: the turns that compressed; a notice, where one shows, is read and checked with axe. */
  const turns = async (count: number) => {
    const compressedAt: number[] = [];
    for (let turn = 0; turn < count; turn++) {
      await chat.send("write 120 words about rivers");
      await chat.waitForReplyDone({ timeout: 30_000 });
      const chip = chat.lastAssistant().getByTestId("compression-chip");
      if ((await chip.count()) === 0) continue;
      compressedAt.push(turn);
      const notice = chip.getByTestId("compression-stuck");
      if ((await notice.count()) === 0) continue;
      told++;
      await expect(notice).toContainText("The context window is nearly full");
      await expect(notice).toContainText(/the system prompt takes [\d,]+, the tool definitions [\d,]+/);
      await expect(notice).toContainText("OLLAMA_CONTEXT_LENGTH");
      await expect(notice).toContainText("MCP servers");
      await expectAxeClean(page, "a compression chip with its notice");
    }
    return compressedAt;
  };
  const consecutive = (at: number[]) => at.some((turn, i) => i > 0 && turn === at[i - 1]! + 1);

  // The figures: a fixed part of 72 % (2,965 tokens), 8 turns of 120-word replies.
  await fixedPart(2965);
  const first = await turns(8);
  expect(first.length).toBeGreaterThan(0);
  expect(first.length).toBeLessThanOrEqual(3);
  expect(consecutive(first)).toBe(false);
  // A fixed part so large that no compression gets under the trigger (3,276): still never on two turns in a row, and
  // the person is told once, not at every compression.
  await fixedPart(3250);
  const second = await turns(7);
  expect(second.length).toBeGreaterThan(1);
  expect(consecutive(second)).toBe(false);
  expect(told).toBe(1);
  const parts = (await view()).messages.flatMap((m) => m.parts).filter((p) => p.type === "data-compression");
  expect(parts).toHaveLength(first.length + second.length);
  expect(parts.filter((p) => p.data?.stuck)).toHaveLength(1);
});
