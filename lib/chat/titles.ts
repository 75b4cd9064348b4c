// The title after the first exchange: a short one instead of the first message verbatim. With a real provider, one
// small model call (a short prompt, 20 output tokens at most, a few seconds at most); with the demo model, a rule.
// Any failure keeps the title the conversation had. Only a title nobody changed is replaced.
import { generateText, type LanguageModel } from "ai";
import { cleanTitle, ruleTitle, titlePrompt } from "../agent/titles.ts";
import { DEMO_MODEL_ID } from "../ai/demo-model.ts";
import type { ChatMessage } from "../chat-message.ts";
import { DEFAULT_TITLE, titleFrom } from "../conversation-title.ts";
import { getConversation, replaceTitle } from "../db/conversations.ts";
import { logFailure } from "../log/logger.ts";
import { promptCacheOptions } from "../ai/prompt-cache-key.ts";

const TITLE_TIMEOUT_MS = 8_000;

const textOf = (message: ChatMessage | undefined) =>
  (message?.parts ?? [])
    .map((p) => (p.type === "text" ? p.text : ""))
    .join(" ")
    .trim();

/**
 * After the reply to a conversation's first message settled: names the conversation when its title is still the one
 * made from that message. Resolves to the new title, or undefined when it kept its title; never throws.
 */
export async function titleAfterFirstReply(job: {
  conversationId: string;
  model: LanguageModel;
  modelId: string;
  history: ChatMessage[];
  reply: ChatMessage;
  status: string;
  abortSignal?: AbortSignal;
}): Promise<string | undefined> {
  try {
    if (job.history.length !== 1 || job.history[0]?.role !== "user" || job.status !== "complete") return undefined;
    const person = textOf(job.history[0]);
    const conversation = await getConversation({ id: job.conversationId });
    if (!conversation || (conversation.title !== titleFrom(person) && conversation.title !== DEFAULT_TITLE))
      return undefined;
    let title: string | null;
    if (job.modelId === DEMO_MODEL_ID) title = ruleTitle(person);
    else {
      const { system, prompt } = titlePrompt(person, textOf(job.reply));
      const signals = [AbortSignal.timeout(TITLE_TIMEOUT_MS), ...(job.abortSignal ? [job.abortSignal] : [])];
      const result = await generateText({
        model: job.model,
        instructions: system,
        messages: [{ role: "user", content: prompt }],
        maxOutputTokens: 20,
        maxRetries: 0,
        // Says what the call is for (a provider ignores it; the test fake keeps these calls apart).
        headers: { "x-hintline-purpose": "title" },
        providerOptions: promptCacheOptions(job.conversationId),
        abortSignal: AbortSignal.any(signals),
      });
      title = cleanTitle(result.text);
    }
    if (!title || title === conversation.title) return undefined;
    return (await replaceTitle({ id: job.conversationId, from: conversation.title, to: title })) ? title : undefined;
  } catch (error) {
    logFailure("making a conversation title failed", { conversationId: job.conversationId })(error);
    return undefined;
  }
}
