// The provider's cache made visible, on the app instance wired to the OpenAI fake (which reports cached tokens as
// OpenAI does, from 128 tokens here): the meter shows the last call's and the conversation's hit rate, and the
// inspector lists every call with its figures and cost, and highlights the call a prompt edit broke the cache at.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { enqueueReplies, FAKE_APP_URL, resetFake } from "./support/openai-fake-control";

const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i % 17}`).join(" ");

test("the meter and the inspector show the cache hit rates, every call's figures and cost, and a cache break", async ({
  page,
  request,
}) => {
  await resetFake(request);
  await enqueueReplies(request, [
    { text: words(80, "a") },
    { kind: "tools", calls: [{ name: "TaskList", arguments: {} }] },
    { text: words(80, "b") },
    { text: "ok" },
  ]);
  const chat = new ChatPage(page, FAKE_APP_URL);
  await chat.gotoNewChat();
  await chat.ask("Tell me about rivers");
  const meterCache = page.getByTestId("meter-cache");
  // One call: nothing could be cached yet.
  await expect(meterCache).toHaveText("Cache 0 % · conversation 0 %");
  await chat.ask("And the tasks?");
  await expect(meterCache).toHaveText(/^Cache ([1-9]\d?|100) % · conversation [1-9]\d? %$/);
  const rateOf = (text: string | null) => Number(/^Cache (\d+) %/.exec(text ?? "")?.[1]);
  const before = rateOf(await meterCache.textContent());

  // A prompt edit: the next call's system prompt differs, so its cache breaks there, for a known reason.
  const id = await chat.conversationId();
  const edit = await request.patch(`${FAKE_APP_URL}/api/conversations/${id}`, {
    data: { settings: { prompt: { instructions: "Be brief." } } },
  });
  expect(edit.ok()).toBe(true);
  await chat.ask("Thanks");
  // Only the prefix before the person's instructions (the tools, the base prompt, the Subagents section) still hits.
  await expect(meterCache).toHaveText(/^Cache \d+ % · conversation [1-9]\d? %$/);
  expect(rateOf(await meterCache.textContent())).toBeLessThan(before);
  // The figures stay after a reload (they are stored with the replies).
  const shown = await meterCache.textContent();
  await chat.reload();
  await expect(meterCache).toHaveText(shown ?? "");

  await page.getByTestId("open-inspector").click();
  const calls = page.getByTestId("inspector").getByTestId("inspector-call");
  await expect(calls).toHaveCount(4);
  const cells = async (i: number) => (await calls.nth(i).locator("td").allTextContents()).map((t) => t.trim());
  const [first, second, third, fourth] = [await cells(0), await cells(1), await cells(2), await cells(3)];
  const tokens = (cell: string | undefined) => Number(cell!.replace(/,/g, ""));
  // Columns: #, model, input, cached, output, cost.
  expect(first[0]).toBe("1");
  expect(first[1]).toBe("fake-model");
  expect(first[3]).toBe("0");
  expect(Number(second[3]!.replace(/,/g, ""))).toBeGreaterThan(0);
  expect(Number(second[3]!.replace(/,/g, ""))).toBeLessThanOrEqual(Number(second[2]!.replace(/,/g, "")));
  // Priced by HINTLINE_PRICE_* (playwright.config.ts): a dollar figure per call.
  expect(second[5]).toMatch(/^\$0\.\d+$/);
  expect(tokens(fourth[3])).toBeLessThan(tokens(third[3]));
  await expect(calls.nth(3)).toHaveAttribute("data-break", "prompt-edit");
  const broken = page.getByTestId("inspector-break");
  await expect(broken).toHaveCount(1);
  await expect(broken).toHaveText("Cache break · system prompt changed · prompt edited");
});
