// What the chat says when a message could not get its reply: words a person can act on, never "Failed to fetch" or
// a raw response body. The input is what useChat reports (an Error, or the SDK's APICallError with the HTTP status
// and the body) or the stored reason of a failed reply (already in words, shown as it is). Pure.

const KEPT = "your message is kept";
const UNREACHABLE = `Can't reach the server — ${KEPT}; retry when it is back.`;
/** How browsers and runtimes word a request that never got an answer. */
const NETWORK =
  /failed to fetch|networkerror|load failed|network ?request failed|fetch failed|network connection was lost|err_(connection|internet|network|name_not_resolved)|econn(refused|reset)/i;

function jsonMessage(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed?.error === "object" && typeof parsed.error?.message === "string") return parsed.error.message;
    if (typeof parsed?.error === "string") return parsed.error;
    if (typeof parsed?.message === "string") return parsed.message;
  } catch {
    // not JSON
  }
  return undefined;
}

const sentence = (text: string) => text.trim().replace(/[.\s]+$/, "");

export function errorInWords(error: unknown): string {
  const message =
    typeof error === "string"
      ? error
      : error instanceof Error || (error && typeof error === "object")
        ? String((error as { message?: unknown }).message ?? "")
        : "";
  const rawStatus = error && typeof error === "object" ? (error as { statusCode?: unknown }).statusCode : undefined;
  const status = typeof rawStatus === "number" ? rawStatus : undefined;
  const text = message.trim();
  const said = jsonMessage(text);

  if (status === undefined) {
    if (NETWORK.test(text) || /^failed to fetch the chat response/i.test(text)) return UNREACHABLE;
    if (said) return said;
    if (!text) return `Something went wrong — ${KEPT}; retry.`;
    // A page instead of a reply (a proxy's error page): say so rather than show its markup.
    if (/^<(!doctype|html|head|body)/i.test(text))
      return `The server answered with an error page instead of a reply — ${KEPT}; retry in a moment.`;
    return text;
  }
  if (status >= 500) {
    if (said) return `${sentence(said)} (HTTP ${status}) — ${KEPT}; retry in a moment.`;
    if (status === 502 || status === 503 || status === 504)
      return `The server is not answering right now (HTTP ${status}) — ${KEPT}; retry when it is back.`;
    return `The server ran into a problem (HTTP ${status}) — ${KEPT}; retry in a moment.`;
  }
  if (status === 401) return `You are signed out — sign in again, then retry; ${KEPT}.`;
  if (status === 429) return `Too many requests — wait a moment, then retry; ${KEPT}.`;
  // Other refusals (4xx): the server's JSON names the problem in words; anything else gets a plain sentence.
  return said ?? `The server refused this message (HTTP ${status}).`;
}
