"use client";
// The chat's requests: a message (or a regenerate) is `POST /api/chat` with the body the page prepares; a resume
// reads the live reply from its first chunk (`prepareReconnect`'s URL; 204 when none is live); and Continue. A
// Continue adds no message of the person's, so it is not sent as one: the chat "resumes" the last reply, and this
// transport answers that resume with the stream of `POST /api/chat { id, continue: true }`, which starts with the reply
// so far and goes on from its end (the same message grows in the transcript, as it does on the server). Each answer's
// SSE body goes to the chat (lib/stores/chat-runner.ts), which reads it; a refusal is a ChatRequestError with the
// status and the body, as the AI SDK's APICallError had them (components/chat/error-words.ts words it).
import type { ChatMessage } from "@/lib/chat-message";
import { fetchSigningIn } from "@/lib/stores/api-client";
import { browserTimeZone } from "@/lib/stores/browser-zone";
import type { ChatTransport as Transport, Trigger } from "@/lib/stores/chat-shapes";

type SendRequest = {
  id: string;
  messages: ChatMessage[];
  body: Record<string, unknown>;
  trigger: Trigger;
  messageId: string | undefined;
};

export type ChatTransportOptions = {
  api: string;
  /** The JSON body of a message's request. */
  prepareSendMessagesRequest: (request: SendRequest) => { body: object };
  /** Where a resume reads the live reply. */
  prepareReconnectToStreamRequest: (request: { id: string }) => { api: string };
};

/** A request the server refused: its HTTP status and the body it answered with (the message, when it has one). */
export class ChatRequestError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
    readonly responseBody: string,
    readonly url: string,
  ) {
    super(message);
    this.name = "ChatRequestError";
  }
}

async function bodyOf(response: Response, url: string): Promise<ReadableStream<Uint8Array>> {
  if (!response.ok) {
    const text = await response.text();
    throw new ChatRequestError(text || "Failed to fetch the chat response.", response.status, text, url);
  }
  if (!response.body) throw new Error("The response body is empty.");
  return response.body;
}

export class ChatTransport implements Transport<ChatMessage> {
  private continuing = false;

  constructor(private readonly options: ChatTransportOptions) {}

  /** The next resume continues the last reply instead of following a live one. */
  continueNext(): void {
    this.continuing = true;
  }

  async sendMessages(options: Parameters<Transport<ChatMessage>["sendMessages"]>[0]) {
    const { api } = this.options;
    const { body } = this.options.prepareSendMessagesRequest({
      id: options.chatId,
      messages: options.messages,
      body: { ...options.body },
      trigger: options.trigger,
      messageId: options.messageId,
    });
    const response = await fetchSigningIn(api, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: options.abortSignal,
    });
    return bodyOf(response, api);
  }

  async reconnectToStream(options: { chatId: string; abortSignal: AbortSignal }) {
    if (this.continuing) return this.continueReply(options);
    const { api } = this.options.prepareReconnectToStreamRequest({ id: options.chatId });
    const response = await fetchSigningIn(api, { method: "GET", headers: {}, signal: options.abortSignal });
    // No reply is live: nothing to resume.
    if (response.status === 204) return null;
    return bodyOf(response, api);
  }

  private async continueReply(options: { chatId: string; abortSignal: AbortSignal }) {
    this.continuing = false;
    const response = await fetchSigningIn("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: options.chatId, continue: true, timezone: browserTimeZone() }),
      signal: options.abortSignal,
    });
    if (!response.ok) throw new Error((await response.text()) || "Continue was not accepted.");
    if (!response.body) throw new Error("The server sent no reply to continue.");
    return response.body;
  }
}
