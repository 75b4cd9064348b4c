// The header at four widths: the conversation title stays readable (at least 120 px, cut with an ellipsis, never to
// a letter or two) and no header control is clipped; what does not fit moves into the "More" menu.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

const TITLE = "Planning the spring trail maintenance weekend with the volunteers";
const WIDTHS = [1440, 1024, 800, 360];

test("the title stays readable and the header controls stay on screen from 1440 to 360 px", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.gotoNewChat();
  await chat.send("hello");
  await chat.waitForReplyDone();
  const id = await chat.conversationId();
  const renamed = await page.request.patch(`/api/conversations/${id}`, { data: { title: TITLE } });
  expect(renamed.ok()).toBe(true);

  const measured: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await chat.reload();
    await expect(chat.chatTitle).toHaveText(TITLE);
    const title = await chat.chatTitle.evaluate((el) => {
      const style = getComputedStyle(el);
      return {
        width: el.getBoundingClientRect().width,
        overflow: style.textOverflow,
        cut: el.scrollWidth > el.clientWidth,
      };
    });
    measured.push(`${width}px: title ${Math.round(title.width)} px${title.cut ? " (cut)" : ""}`);
    expect.soft(title.width, `title width at ${width} px`).toBeGreaterThanOrEqual(120);
    if (title.cut) expect(title.overflow).toBe("ellipsis");

    // Every visible control of the header lies wholly inside the header and the window.
    const clipped = await page.evaluate(() => {
      const header = document.querySelector("[data-testid='app-header']");
      if (!header) return ["no header"];
      const box = header.getBoundingClientRect();
      return [...header.querySelectorAll<HTMLElement>("button, a, [data-testid='model-badge']")]
        .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden")
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return (
            r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.right > window.innerWidth + 0.5)
          );
        })
        .map((el) => el.dataset.testid ?? el.getAttribute("aria-label") ?? el.tagName);
    });
    expect.soft(clipped, `clipped header controls at ${width} px`).toEqual([]);

    // The theme switch is reachable: in the header, or in the "More" menu.
    if (await chat.themeToggle.isVisible()) {
      await expect(chat.themeToggle).toBeInViewport({ ratio: 1 });
    } else {
      await page.getByRole("button", { name: "More" }).click();
      const item = page.getByRole("menuitem", { name: /Switch to (dark|light) theme/ });
      await expect(item).toBeInViewport({ ratio: 1 });
      await page.keyboard.press("Escape");
    }
  }
  console.log(`[layout] ${measured.join(" · ")}`);
});
