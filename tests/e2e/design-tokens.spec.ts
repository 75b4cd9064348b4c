// The look comes from tailwind.config.ts: both themes' colours (a 4.5:1 muted text in each), the self-hosted Inter
// font (served by Hintline itself, no other host asked), and the chip palette.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test("Inter is served by Hintline itself and both themes take their colours from the tokens", async ({ page }) => {
  const foreign: string[] = [];
  const fonts: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.hostname !== "127.0.0.1") foreign.push(request.url());
    if (request.resourceType() === "font") fonts.push(url.pathname);
  });
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await page.evaluate(() => document.fonts.ready);
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"?Inter Variable"?,/);
  expect(await page.evaluate(() => document.fonts.check('16px "Inter Variable"'))).toBe(true);
  expect(fonts.length, "font files fetched").toBeGreaterThan(0);
  expect(fonts.every((path) => path.endsWith(".woff2"))).toBe(true);
  expect(foreign).toEqual([]);

  const tokens = () =>
    page.evaluate(() => {
      const root = getComputedStyle(document.documentElement);
      return {
        bg: root.getPropertyValue("--bg").trim(),
        muted: root.getPropertyValue("--muted").trim(),
        body: getComputedStyle(document.body).backgroundColor,
      };
    });
  expect(await tokens()).toEqual({ bg: "#fbfbf9", muted: "#5f5f64", body: "rgb(251, 251, 249)" });
  await chat.themeToggle.click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await tokens()).toEqual({ bg: "#161618", muted: "#a0a0a8", body: "rgb(22, 22, 24)" });

  // The hint chip is drawn in the chip palette.
  await chat.send("what time is it?");
  await chat.waitForReplyDone();
  const pill = chat.lastAssistant().getByTestId("hint-chip").getByRole("button");
  expect(await pill.evaluate((el) => getComputedStyle(el).color)).toBe("rgb(160, 160, 168)");
});
