// A bare AI SDK 7 chat route (no database, no harness), the reference `npm run bench` measures /api/chat against.
// Off (404) unless the server was started with HINTLINE_BENCH_BARE=1. `?headers=chat` answers with the stream headers
// Hintline's chat sends (no gzip), so the benchmark can also compare like with like.
import { convertToModelMessages, type LanguageModel, streamText, type UIMessage } from "ai";
import { resolveModel } from "@/lib/ai/providers";
import { CHAT_STREAM_HEADERS } from "@/lib/api/stream-headers";

export const dynamic = "force-dynamic";

// The default model, as its provider's AI SDK package makes it (the same request path /api/chat uses).
let model: LanguageModel | undefined;

export async function POST(request: Request): Promise<Response> {
  if (process.env.HINTLINE_BENCH_BARE !== "1") {
    return Response.json({ error: { code: "not_found", message: "Not found." } }, { status: 404 });
  }
  const body = (await request.json()) as { messages: UIMessage[] };
  model ??= resolveModel(process.env).model;
  const result = streamText({ model, messages: await convertToModelMessages(body.messages) });
  const sameHeaders = new URL(request.url).searchParams.get("headers") === "chat";
  return result.toUIMessageStreamResponse(sameHeaders ? { headers: CHAT_STREAM_HEADERS } : {});
}
