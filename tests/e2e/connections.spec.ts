// Settings → Models & connections (issue 46), on the demo app: add the OpenAI fake as a connection through the page
// (the key field write-only), Test it, pick its model in the grouped picker, get a reply from the fake; a URL that
// answers nothing is told in words with nothing added; axe clean in both themes. The connection is deleted after.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectAxeClean } from "./support/axe";
import { chatRequests, enqueueReplies, FAKE_URL, resetFake } from "./support/openai-fake-control";

const KEY = "e2e-connection-key-0123456789";

test.describe("models & connections", () => {
  test.beforeEach(async ({ request }) => {
    await resetFake(request);
  });
  test.afterEach(async ({ request }) => {
    await request.delete("/api/connections/local-fake");
  });

  test("add a connection in the page, test it, pick its model and get its reply", async ({ page, request }) => {
    await page.goto("/");
    await page.getByTestId("models-settings-link").first().click();
    await expect(page.getByTestId("connections-page")).toBeVisible();
    await expectAxeClean(page, "models & connections, empty");

    const form = page.getByTestId("connection-form");
    await form.getByLabel("Name").fill("local-fake");
    await form.getByLabel("URL").fill("http://127.0.0.1:1/v1");
    await form.getByTestId("connection-add").click();
    await expect(page.getByTestId("connection-form-error")).toContainText("connection refused");
    await expect(page.locator('[data-connection="local-fake"]')).toHaveCount(0);

    await form.getByLabel("URL").fill(`${FAKE_URL}/v1`);
    await form.getByLabel("Key").fill(KEY);
    await form.getByTestId("connection-add").click();
    const row = page.locator('[data-connection="local-fake"]');
    await expect(row.getByTestId("connection-models")).toContainText("local-fake/fake-model");
    await expect(row.getByTestId("connection-key-state")).toHaveText("Key set");
    await expect(form.getByLabel("Key")).toHaveValue("");
    expect(await page.content()).not.toContain(KEY);

    await row.getByRole("button", { name: "Test connection local-fake" }).click();
    await expect(row.getByTestId("connection-status")).toHaveText("Serves 1 model: local-fake/fake-model");
    await expectAxeClean(page, "models & connections, one added and tested");

    await page.getByTestId("connections-back").click();
    const chat = new ChatPage(page);
    await chat.waitForHydration();
    await expect(chat.modelPicker.locator('optgroup[label="local-fake"] option')).toHaveCount(1);
    await chat.pickModel("local-fake/fake-model");
    await enqueueReplies(request, [{ text: "The local server answers." }]);
    expect(await chat.ask("Who answers?")).toBe("The local server answers.");
    const sent = await chatRequests(request);
    expect(sent.at(-1)!.body.model).toBe("fake-model");
    expect(sent.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});
