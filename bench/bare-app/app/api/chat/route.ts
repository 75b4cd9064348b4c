// The AI SDK's Next.js example route, as a person starting a chat app writes it: the reference the memory benchmark
// (bench/memory-bench.ts) compares Hintline's serving process with. The only changes: the OpenAI fake's address and
// the Chat Completions API (the fake speaks only that).
import { createOpenAI } from "@ai-sdk/openai";
import { convertToModelMessages, streamText, type UIMessage } from "ai";

const openai = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY });

export const maxDuration = 30;

export async function POST(req: Request): Promise<Response> {
  const { messages }: { messages: UIMessage[] } = await req.json();
  const result = streamText({
    model: openai.chat(process.env.HINTLINE_MODEL ?? "fake-model"),
    messages: await convertToModelMessages(messages),
  });
  return result.toUIMessageStreamResponse();
}
