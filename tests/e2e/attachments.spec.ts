// Attachments in the browser: a file is attached by the paperclip button, by dropping it on the composer and by
// pasting it; pending ones are chips with Remove; a refused file is named in words; what is sent reaches the model
// provider's request (the OpenAI fake): the image as an image_url part, the text file as its text, the PDF as its
// extracted text; the sent message shows the image as a thumbnail and the other files as named chips, after a reload
// too, its text with no blank lines above it (reloaded, imported, at 390 px); the demo model says what it received;
// axe finds nothing critical or serious with attachments or an error.
import { expect, test } from "@playwright/test";
import { dataUrl, tinyPdf } from "../support/tiny-pdf";
import { type AttachmentFile, ChatPage } from "./pages/chat-page";
import { chatRequests, enqueueReplies, FAKE_APP_URL, resetFake } from "./support/openai-fake-control";
import { expectAxeClean } from "./support/axe";

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2ad1f5c0000000049454e44ae426082",
  "hex",
);
const tag = () => Math.random().toString(36).slice(2, 8);
const image: AttachmentFile = { name: "dot.png", mimeType: "image/png", buffer: PNG };
const notes = (word: string): AttachmentFile => ({
  name: "notes.md",
  mimeType: "text/markdown",
  buffer: Buffer.from(`# Notes\nThe word is ${word}.`),
});
const report = (word: string): AttachmentFile => ({
  name: "report.pdf",
  mimeType: "application/pdf",
  buffer: tinyPdf([`Report about ${word}`, "Second page"]),
});

type WirePart = { type: string; text?: string; image_url?: { url: string } };

test.describe("attachments", () => {
  test("attached by button, drop and paste, sent to the provider and shown in the message", async ({
    page,
    request,
  }) => {
    await resetFake(request);
    const word = `kestrel${tag()}`;
    await enqueueReplies(request, [{ text: "I looked at all three." }]);
    const chat = new ChatPage(page, FAKE_APP_URL);
    await chat.gotoNewChat();

    await chat.attachByButton([image, notes("wrong")]);
    await expect(chat.attachmentChips).toHaveCount(2);
    await expect(chat.attachmentChips.nth(0).getByRole("img", { name: "dot.png" })).toBeVisible();
    // Remove takes the chip away; the text file comes back by drop.
    await chat.attachmentChips.nth(1).getByRole("button", { name: "Remove notes.md" }).click();
    await expect(chat.attachmentChips).toHaveCount(1);
    await chat.dropFiles([notes(word)]);
    await chat.pasteFiles([report(word)]);
    await expect(chat.attachmentChips).toHaveCount(3);
    await expect(chat.attachmentChips.nth(2)).toContainText("report.pdf");
    await expect(chat.attachmentChips.nth(2)).toContainText("PDF");
    await expectAxeClean(page, "composer with attachments");

    await chat.send("What do these say?");
    await expect(chat.attachmentChips).toHaveCount(0);
    await chat.waitForReplyDone();
    await expect.poll(() => chat.replyText()).toBe("I looked at all three.");

    const [sent] = await chatRequests(request);
    // The person's message is the user message with parts (hints are user messages of their own, as strings).
    const user = (sent!.body.messages as Array<{ role: string; content: string | WirePart[] }>).find(
      (m) => m.role === "user" && Array.isArray(m.content),
    )!;
    const parts = user.content as WirePart[];
    expect(parts.find((p) => p.type === "image_url")?.image_url?.url).toBe(dataUrl("image/png", PNG));
    expect(parts.map((p) => p.text ?? "").join("\n")).toContain(
      `Attached file "notes.md" (text/markdown):\n\n# Notes\nThe word is ${word}.`,
    );
    expect(parts.map((p) => p.text ?? "").join("\n")).toContain(
      `Attached PDF "report.pdf" (2 pages):\n\n--- Page 1 ---\nReport about ${word}`,
    );
    expect(JSON.stringify(parts)).not.toContain("wrong");

    // The inspector shows the message as the model received it.
    await page.getByTestId("open-inspector").click();
    const inspector = page.getByRole("dialog", { name: "Next model input" });
    const person = inspector.getByTestId("inspector-message-text").filter({ hasText: "What do these say?" });
    await expect(person).toContainText(
      `Attached image "dot.png" (image/png, ${PNG.length} B):\n[image/png sent as a file part · "dot.png" · ${PNG.length} B]`,
    );
    await expect(person).toContainText(`--- Page 1 ---\nReport about ${word}`);
    await page.keyboard.press("Escape");
    await expect(inspector).toBeHidden();

    // The sent message shows the image as a thumbnail and the files as named chips, after a reload too.
    for (const pass of ["live", "reloaded"]) {
      if (pass === "reloaded") await chat.reload();
      await expect(chat.sentImages.getByRole("img", { name: "dot.png" }), pass).toBeVisible();
      await expect(chat.sentFiles, pass).toHaveCount(2);
      await expect(chat.sentFiles.nth(0), pass).toContainText("notes.md");
      await expect(chat.sentFiles.nth(1), pass).toContainText("report.pdf");
    }
  });

  test("a refused file is named in words; the demo model says what it received", async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.gotoNewChat();
    await chat.attachByButton([
      { name: "archive.zip", mimeType: "application/zip", buffer: Buffer.from("PK\u0003\u0004") },
    ]);
    await expect(chat.attachmentErrors).toBeVisible();
    await expect(chat.attachmentErrors).toHaveAttribute("role", "alert");
    await expect(chat.attachmentErrors).toContainText(
      "archive.zip can't be attached: Hintline takes images (PNG, JPEG, GIF, WebP), PDFs and text files.",
    );
    await expect(chat.attachmentChips).toHaveCount(0);
    await expectAxeClean(page, "composer with an attachment error");

    const scan: AttachmentFile = { name: "scan.pdf", mimeType: "application/pdf", buffer: tinyPdf([null]) };
    await chat.pasteFiles([image, scan]);
    await expect(chat.attachmentChips).toHaveCount(2);
    // A good file clears the earlier error.
    await expect(chat.attachmentErrors).toHaveCount(0);
    await chat.send("What did I send?");
    await chat.waitForReplyDone();
    const reply = await chat.replyText();
    expect(reply).toContain(`I received image "dot.png" (image/png, ${PNG.length} B).`);
    expect(reply).toContain(
      `I received the PDF "scan.pdf" (1 page), but it has no text layer, so I can't read its text.`,
    );

    // The message's text has no blank lines above it (its files are shown apart): as sent, after a reload, in an
    // imported copy, at 390 px.
    const expectTextAlone = async (pass: string) => {
      await expect(chat.sentFiles, pass).toHaveCount(1);
      expect(await chat.lastUser().evaluate((el) => el.textContent), pass).toBe("What did I send?");
      // One line of text: the bubble is one line tall (a blank line above it made it 3 lines at any width).
      expect((await chat.lastUser().boundingBox())?.height ?? 0, pass).toBeLessThan(50);
    };
    await expectTextAlone("sent");
    await chat.reload();
    await expectTextAlone("reloaded");
    const exported = await page.request.get(`/api/conversations/${await chat.conversationId()}/export`);
    const imported = await page.request.post("/api/conversations/import", {
      headers: { "content-type": "application/json" },
      data: await exported.text(),
    });
    expect(imported.status()).toBe(201);
    await chat.gotoConversation(((await imported.json()) as { id: string }).id);
    await expectTextAlone("imported");
    await page.setViewportSize({ width: 390, height: 844 });
    await expectTextAlone("imported, 390 px");
  });
});
