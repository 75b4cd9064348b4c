"use client";
// The chat's transport: the AI SDK's default one, plus Continue. A Continue adds no message of the person's, so it is
// not sent as one: the chat "resumes" the last reply, and this transport answers that resume with the stream of
// `POST /api/chat { id, continue: true }`, which starts with the reply so far and goes on from its end (the same
// message grows in the transcript, as it does on the server).
import { DefaultChatTransport, type UIMessageChunk } from "ai";
import type { ChatMessage } from "@/lib/chat-message";
import { fetchSigningIn } from "@/lib/stores/api-client";
import { browserTimeZone } from "@/lib/stores/browser-zone";

type Options = ConstructorParameters<typeof DefaultChatTransport<ChatMessage>>[0];
type ReconnectOptions = Parameters<DefaultChatTransport<ChatMessage>["reconnectToStream"]>[0];

export class ChatTransport extends DefaultChatTransport<ChatMessage> {
  private continuing = false;

  constructor(options: Options) {
    super({ fetch: fetchSigningIn, ...options });
  }

  /** The next resume continues the last reply instead of following a live one. */
  continueNext(): void {
    this.continuing = true;
  }

  override async reconnectToStream(options: ReconnectOptions): Promise<ReadableStream<UIMessageChunk> | null> {
    if (!this.continuing) return super.reconnectToStream(options);
    this.continuing = false;
    const response = await fetchSigningIn("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: options.chatId, continue: true, timezone: browserTimeZone() }),
      signal: options.abortSignal,
    });
    if (!response.ok) throw new Error((await response.text()) || "Continue was not accepted.");
    if (!response.body) throw new Error("The server sent no reply to continue.");
    return this.processResponseStream(response.body);
  }
}
