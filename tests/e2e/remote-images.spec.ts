// Remote images in replies (issue #24): a Markdown image pointing at another site is not fetched when the
// conversation opens (its URL could carry data out); it shows as a button naming the site, and only a click reaches
// that site. The page's Content-Security-Policy refuses a remote image even when one is put in the page, and the app
// runs with it (no script or style it refuses). Axe stays clean with the button.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectAxeClean } from "./support/axe";

type Sink = { url: string; paths: string[]; close: () => Promise<void> };

/** A loopback HTTP server standing for another site: it records every request and answers with a tiny PNG. */
async function startSink(): Promise<Sink> {
  const paths: string[] = [];
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
    "base64",
  );
  const server = http.createServer((request, response) => {
    paths.push(request.url ?? "");
    response.writeHead(200, { "content-type": "image/png" });
    response.end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test("a remote image in a reply loads only after a click, and the page's policy refuses one put in the page", async ({
  page,
  context,
}) => {
  const sink = await startSink();
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  try {
    const id = `img-${Date.now().toString(36)}`;
    const leak = `${sink.url}/leak.png?secret=${id}`;
    const imported = await page.request.post("/api/conversations/import", {
      data: {
        version: 1,
        conversation: {
          id,
          title: "Images",
          messages: [
            { id: `${id}-u`, role: "user", parts: [{ type: "text", text: "show me a picture" }] },
            {
              id: `${id}-a`,
              role: "assistant",
              parts: [{ type: "text", text: `Here:\n\n![a chart](${leak})\n\nAnd a link: [docs](${sink.url}/docs)` }],
            },
          ],
        },
      },
    });
    expect(imported.status()).toBe(201);
    const chat = new ChatPage(page);
    const response = await page.goto(`/c/${id}`);
    await expect(chat.lastAssistant()).toContainText("And a link");
    await page.waitForTimeout(500);
    expect(sink.paths).toEqual([]);
    const button = page.getByTestId("remote-image");
    await expect(button).toHaveText(`Load image from 127.0.0.1:${new URL(sink.url).port} (a chart)`);
    await expect(chat.lastAssistant().locator("img")).toHaveCount(0);
    const policy = response?.headers()["content-security-policy"] ?? "";
    expect(policy).toContain("img-src 'self' data: blob:");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response?.headers()["x-frame-options"]).toBe("DENY");

    // The page works under the policy: a message is sent and answered.
    await chat.send("write 3 words about images");
    await chat.waitForReplyDone();

    // An image element put in the page by any other way is refused by the policy, not fetched.
    await page.evaluate((src) => {
      const img = document.createElement("img");
      img.src = src;
      img.alt = "";
      document.body.append(img);
    }, `${sink.url}/injected.png`);
    await page.waitForTimeout(500);
    expect(sink.paths).toEqual([]);

    await expectAxeClean(page, "a remote image as a button");

    const [opened] = await Promise.all([context.waitForEvent("page"), button.click()]);
    await opened.waitForLoadState();
    // The opened tab shows the image itself, so Chromium also asks that site for /favicon.ico (the browser's own
    // request, not the page's): only what the page asked for is compared.
    await expect.poll(() => sink.paths.filter((path) => path !== "/favicon.ico")).toEqual([`/leak.png?secret=${id}`]);
    await opened.close();
    // Only the injected image was refused: nothing Next.js or the app needs.
    expect(violations.filter((v) => !v.includes("injected.png"))).toEqual([]);
  } finally {
    await sink.close();
  }
});
