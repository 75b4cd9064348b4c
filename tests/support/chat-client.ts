// A minimal client of the app's HTTP API for tests: send a chat message and read the UI message stream.
import { generateId } from "ai";
import { shortJson } from "./poll.ts";

export type StreamChunk = { type: string; [key: string]: unknown };

/** Parses an AI SDK UI message stream (SSE `data: {...}` events) into its chunks. */
export async function readChunks(response: Response): Promise<StreamChunk[]> {
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)) as StreamChunk);
}

export function streamedText(chunks: StreamChunk[]): string {
  return chunks
    .filter((c) => c.type === "text-delta")
    .map((c) => c.delta as string)
    .join("");
}

export async function postChat(
  baseUrl: string,
  {
    conversationId,
    text,
    messageId = generateId(),
    timezone,
    headers = {},
    signal,
  }: {
    conversationId: string;
    text: string;
    messageId?: string;
    timezone?: string;
    headers?: Record<string, string>;
    signal?: AbortSignal;
  },
): Promise<Response> {
  return fetch(`${baseUrl}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({
      id: conversationId,
      message: { id: messageId, role: "user", parts: [{ type: "text", text }] },
      ...(timezone ? { timezone } : {}),
    }),
    signal,
  });
}

/** Sends a message and reads the whole reply. */
export async function chat(baseUrl: string, options: Parameters<typeof postChat>[1]) {
  const response = await postChat(baseUrl, options);
  const chunks = response.ok ? await readChunks(response) : [];
  return { response, chunks, text: streamedText(chunks) };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
export async function getJson<T = any>(url: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const response = await fetch(url, init);
  const body = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  return { status: response.status, body: body as T };
}

/** Presses Stop on a conversation's live reply, wherever it runs (POST /api/conversations/:id/stop). */
export async function stopReply(
  baseUrl: string,
  conversationId: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${baseUrl}/api/conversations/${conversationId}/stop`, { method: "POST", headers });
}

/** Reads a UI message stream in two goes: up to a chunk, then the rest (nothing read is lost in between). */
export function chunkReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const chunks: StreamChunk[] = [];
  let buffer = "";
  let position = 0;
  const pump = async (stop: () => boolean): Promise<void> => {
    while (!stop()) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines)
        if (line.startsWith("data: ") && line !== "data: [DONE]") chunks.push(JSON.parse(line.slice(6)));
    }
  };
  return {
    chunks,
    until: async (match: (c: StreamChunk) => boolean) => {
      await pump(() => chunks.slice(position).some(match));
      position = chunks.length;
    },
    rest: async () => {
      await pump(() => false);
      return chunks;
    },
  };
}

export type EventListener = {
  events: Array<{ type: string; id: string }>;
  comments: string[];
  close: () => void;
  /** The response's content type once the first comment (the server's "connected") has come; rejects at the deadline. */
  opened: Promise<string | null>;
  /** Resolves once an event matches; throws at the deadline (or when the stream failed), naming `what` and the events seen. */
  waitFor: (match: (event: { type: string; id: string }) => boolean, what: string, timeoutMs?: number) => Promise<void>;
  /** Whether the stream ended (or failed) before `close` was called: the server closed it. */
  ended: () => boolean;
};

/**
 * Reads server-sent events from GET /api/events into `events` until `close` is called. Fails loudly: `opened` rejects
 * when the request fails, is refused or sends no comment within `openTimeoutMs`; `waitFor` throws at its deadline,
 * and a stream that fails or ends before `close` makes the next `waitFor` throw (and `ended` say so). `headers`: a
 * signed-in user's (accounts mode).
 */
export function listenToEvents(
  url: string,
  { openTimeoutMs = 10_000, headers = {} }: { openTimeoutMs?: number; headers?: Record<string, string> } = {},
): EventListener {
  const events: Array<{ type: string; id: string }> = [];
  const comments: string[] = [];
  const controller = new AbortController();
  let closed = false;
  let failure: Error | undefined;
  let resolveOpened!: (contentType: string | null) => void;
  let rejectOpened!: (error: Error) => void;
  const opened = new Promise<string | null>((resolve, reject) => {
    resolveOpened = resolve;
    rejectOpened = reject;
  });
  const openTimer = setTimeout(
    () =>
      rejectOpened(
        new Error(`listenToEvents: no "connected" comment from GET ${url}/api/events within ${openTimeoutMs} ms`),
      ),
    openTimeoutMs,
  );
  void (async () => {
    const response = await fetch(`${url}/api/events`, { headers, signal: controller.signal });
    if (!response.ok || !response.body)
      throw new Error(
        `listenToEvents: GET ${url}/api/events answered ${response.status}: ${(await response.text()).slice(0, 300)}`,
      );
    const contentType = response.headers.get("content-type");
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`listenToEvents: the event stream of ${url} ended before close()`);
      buffer += decoder.decode(value, { stream: true });
      const blocks = buffer.split("\n\n");
      buffer = blocks.pop() ?? "";
      for (const block of blocks) {
        if (block.startsWith(":")) {
          comments.push(block);
          clearTimeout(openTimer);
          resolveOpened(contentType);
        } else if (block.startsWith("data: ")) events.push(JSON.parse(block.slice(6)));
      }
    }
  })().catch((error: Error) => {
    clearTimeout(openTimer);
    if (closed) return;
    failure = error;
    rejectOpened(error);
  });
  const close = () => {
    closed = true;
    clearTimeout(openTimer);
    controller.abort();
  };
  const waitFor: EventListener["waitFor"] = async (match, what, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (events.some(match)) return;
      if (failure) throw new Error(`listenToEvents: waiting for ${what}: ${failure.message}`);
      if (Date.now() > deadline) {
        throw new Error(
          `listenToEvents: waited ${timeoutMs} ms for ${what} from ${url}; events seen: ${shortJson(events)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { events, comments, close, opened, waitFor, ended: () => failure !== undefined };
}
