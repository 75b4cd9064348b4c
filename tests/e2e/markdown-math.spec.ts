// The markdown people expect in replies (issue 30, item 4): math typeset with KaTeX (inline and display, its fonts
// served by Hintline itself, nothing fetched from elsewhere), tables and task lists.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

const REPLY = [
  "Euler's identity is $e^{i\\pi} + 1 = 0$, and the area under the parabola:",
  "",
  "It costs $5 and $10 a month, and \\( a^2 + b^2 = c^2 \\) holds.",
  "",
  "$$",
  "\\int_0^1 x^2\\,dx = \\frac{1}{3}",
  "$$",
  "",
  "| Planet | Moons |",
  "| ------ | ----: |",
  "| Earth  | 1     |",
  "| Mars   | 2     |",
  "",
  "- [x] Measure the orbit",
  "- [ ] Write it up",
].join("\n");

test("a reply's math is typeset by KaTeX with local fonts; its table and task list render as such", async ({
  page,
}) => {
  const id = `math-${Date.now().toString(36)}`;
  const imported = await page.request.post("/api/conversations/import", {
    data: {
      version: 1,
      conversation: {
        id,
        title: "Math",
        messages: [
          { id: `${id}-u`, role: "user", parts: [{ type: "text", text: "show me some math" }] },
          { id: `${id}-a`, role: "assistant", parts: [{ type: "text", text: REPLY }] },
        ],
      },
    },
  });
  expect(imported.status()).toBe(201);
  const elsewhere: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.hostname !== "127.0.0.1" && url.protocol !== "data:") elsewhere.push(request.url());
  });
  const chat = new ChatPage(page);
  await chat.gotoConversation(((await imported.json()) as { id: string }).id);
  const reply = chat.lastAssistant().getByTestId("message-text");

  // Math: two inline formulas ($…$ and \(…\)) and one display formula, each with its TeX kept for screen readers
  // and copying; dollar amounts stay money.
  await expect(reply.locator(".katex")).toHaveCount(3);
  await expect(reply).toContainText("It costs $5 and $10 a month");
  await expect(reply.locator(".katex-display")).toHaveCount(1);
  await expect(reply.locator(".katex-display annotation")).toHaveText("\\int_0^1 x^2\\,dx = \\frac{1}{3}");
  await expect(reply.locator(".katex math").first()).toBeAttached();
  expect(await reply.textContent()).not.toContain("$$");
  // KaTeX's own fonts, loaded from this server.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        await document.fonts.ready;
        return document.fonts.check("16px KaTeX_Main");
      }),
    )
    .toBe(true);
  const fontFamily = await reply
    .locator(".katex")
    .first()
    .evaluate((el) => getComputedStyle(el).fontFamily);
  expect(fontFamily).toContain("KaTeX_Main");

  // Table.
  const table = reply.locator("table");
  await expect(table.locator("th")).toHaveText(["Planet", "Moons"]);
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(table.locator("tbody tr").nth(1).locator("td")).toHaveText(["Mars", "2"]);

  // Task list: checkboxes that show the state and cannot be ticked in a reply.
  const boxes = reply.locator("li input[type=checkbox]");
  await expect(boxes).toHaveCount(2);
  await expect(boxes.first()).toBeChecked();
  await expect(boxes.nth(1)).not.toBeChecked();
  await expect(boxes.first()).toBeDisabled();

  expect(elsewhere).toEqual([]);
});
