// The model picker, on the app instance wired to two providers' fakes (OpenAI's, the default fake-model, and
// Anthropic's): pick a model in the header, send a message, and the next reply comes from the new provider; the
// transcript shows where the switch happened and the inspector the model of each call, both after a reload too.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { anthropicRequests, enqueueAnthropicReplies, resetAnthropicFake } from "./support/anthropic-fake-control";
import { chatRequests, enqueueReplies, FAKE_APP_URL, resetFake } from "./support/openai-fake-control";

const CLAUDE = "anthropic/claude-haiku-4-5";

test.describe("model picker", () => {
  test.beforeEach(async ({ request }) => {
    await Promise.all([resetFake(request), resetAnthropicFake(request)]);
  });

  test("switching mid-conversation: the next reply is the new model's, marked in the transcript and the inspector", async ({
    page,
    request,
  }) => {
    const chat = new ChatPage(page, FAKE_APP_URL);
    await chat.gotoNewChat();
    // A real select, labelled, listing both providers' models with the default chosen.
    const picker = page.getByRole("combobox", { name: "Model" });
    await expect(picker).toHaveValue("fake-model");
    await expect(chat.modelPicker.locator("option")).toContainText([/fake-model/, /anthropic\/claude-sonnet-4-5/]);
    await expect(chat.modelPicker.locator(`option[value="${CLAUDE}"]`)).toHaveCount(1);

    await enqueueReplies(request, [{ text: "OpenAI speaking." }]);
    expect(await chat.ask("Who are you?")).toBe("OpenAI speaking.");
    await expect(chat.modelSwitches).toHaveCount(0);

    await chat.pickModel(CLAUDE);
    await enqueueAnthropicReplies(request, [{ text: "Claude speaking." }]);
    expect(await chat.ask("And now?")).toBe("Claude speaking.");
    const sent = await anthropicRequests(request);
    expect(sent.map((r) => r.body.model)).toContain("claude-haiku-4-5");
    expect(await chatRequests(request)).toHaveLength(1);

    // The divider sits before the turn the new model answered, and is derived from the stored replies.
    await expect(chat.modelSwitches).toHaveCount(1);
    await expect(chat.modelSwitches).toHaveText(`Model: fake-model → ${CLAUDE}`);
    const divider = await chat.modelSwitches.boundingBox();
    const asked = await chat.lastUser().boundingBox();
    expect(divider!.y).toBeLessThan(asked!.y);

    await chat.reload();
    await expect(chat.modelPicker).toHaveValue(CLAUDE);
    await expect(chat.modelSwitches).toHaveText(`Model: fake-model → ${CLAUDE}`);
    await page.getByTestId("open-inspector").click();
    const models = page.getByTestId("inspector").getByTestId("inspector-call-model");
    await expect(models).toHaveText(["fake-model", CLAUDE]);
    await expect(page.getByTestId("inspector-call").nth(1)).toHaveAttribute("data-break", "model-switch");
  });

  test("a model picked before the first message is the new conversation's: no switch to mark", async ({
    page,
    request,
  }) => {
    const chat = new ChatPage(page, FAKE_APP_URL);
    await chat.gotoNewChat();
    await chat.pickModel(CLAUDE);
    await enqueueAnthropicReplies(request, [{ text: "Claude from the start." }]);
    expect(await chat.ask("Hello")).toBe("Claude from the start.");
    expect(await chatRequests(request)).toHaveLength(0);
    await chat.reload();
    await expect(chat.modelPicker).toHaveValue(CLAUDE);
    await expect(chat.modelSwitches).toHaveCount(0);
  });
});
