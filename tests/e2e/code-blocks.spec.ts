// Code blocks in replies: highlight.js loaded on demand colours a ```ts block, its language is labelled, and the Copy
// button (visible without hovering) copies the code and says so; its colours keep 4.5:1 in both themes (axe).
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { DEMO_PORT } from "../../playwright.config";
import { ChatPage } from "./pages/chat-page";

const CODE = "const answer: number = 42;\nfunction double(value: number): number {\n  return value * 2;\n}";

test("a ```ts block is highlighted, labelled TypeScript, and copied by its always-visible Copy button", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const id = `code-${Date.now().toString(36)}`;
  const imported = await page.request.post("/api/conversations/import", {
    data: {
      version: 1,
      conversation: {
        id,
        title: "Code",
        messages: [
          { id: `${id}-u`, role: "user", parts: [{ type: "text", text: "show me some typescript" }] },
          {
            id: `${id}-a`,
            role: "assistant",
            parts: [
              {
                type: "text",
                text: `Here it is:\n\n\`\`\`ts\n${CODE}\n\`\`\`\n\nAnd plain:\n\n\`\`\`\nno language\n\`\`\``,
              },
            ],
          },
        ],
      },
    },
  });
  expect(imported.status()).toBe(201);
  const chat = new ChatPage(page);
  await chat.gotoConversation(((await imported.json()) as { id: string }).id);

  const [ts, plain] = [page.getByTestId("code-block").first(), page.getByTestId("code-block").nth(1)];
  await expect(ts.getByTestId("code-language")).toHaveText("TypeScript");
  await expect(plain.getByTestId("code-language")).toHaveText("Text");
  await expect(ts.locator(".hljs-keyword").first()).toHaveText("const");
  await expect(ts.locator(".hljs-keyword")).not.toHaveCount(0);
  await expect(ts.locator("code")).toHaveText(CODE);
  await expect(plain.locator("[class^='hljs-']")).toHaveCount(0);

  // Visible without hovering anything (the mouse is parked away from the block).
  await page.mouse.move(0, 0);
  const copy = ts.getByTestId("copy-code");
  await expect(copy).toBeVisible();
  await expect(copy).toHaveText("Copy");
  await copy.click();
  await expect(copy).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
});

test("highlighted code keeps its contrast in both themes (axe on the code blocks)", async ({ page, context }) => {
  const id = `code-axe-${Date.now().toString(36)}`;
  const python =
    "# a comment the reader must still read\ndef double(value: int) -> int:\n    return value * 2  # twice\n\nprint(double(21), 'done')";
  const ts =
    "// the answer, typed\nclass Answer {\n  value: number = 42;\n}\nfunction show(a: Answer): string {\n  return String(a.value);\n}";
  const imported = await page.request.post("/api/conversations/import", {
    data: {
      version: 1,
      conversation: {
        id,
        title: "Code colours",
        messages: [
          { id: `${id}-u`, role: "user", parts: [{ type: "text", text: "show me code" }] },
          {
            id: `${id}-a`,
            role: "assistant",
            parts: [{ type: "text", text: `\`\`\`python\n${python}\n\`\`\`\n\n\`\`\`ts\n${ts}\n\`\`\`` }],
          },
        ],
      },
    },
  });
  expect(imported.status()).toBe(201);
  const chat = new ChatPage(page);
  for (const theme of ["light", "dark"] as const) {
    await context.addCookies([{ name: "hintline_theme", value: theme, url: `http://127.0.0.1:${DEMO_PORT}` }]);
    await chat.gotoConversation(id);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    const blocks = page.getByTestId("code-block");
    await expect(blocks.first().locator(".hljs-comment").first()).toBeVisible();
    await expect(blocks.nth(1).locator(".hljs-title").first()).toBeVisible();
    await page.waitForTimeout(300);
    const results = await new AxeBuilder({ page })
      .include('[data-testid="code-block"]')
      .withRules(["color-contrast"])
      .analyze();
    expect(
      results.violations.map((v) => `${theme}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  }
});
