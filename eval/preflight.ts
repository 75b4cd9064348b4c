// Before `npm run eval` plays a suite against `--base-url`, one tiny request checks that an OpenAI-compatible Chat
// Completions API answers there. Without it an unusable URL played every scenario into errors and reported 0 %.

export type BaseUrlProbe = { baseUrl: string; model: string; apiKey?: string; timeoutMs?: number };

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: "the connection was refused (nothing listens there)",
  ENOTFOUND: "the host name does not resolve",
  EAI_AGAIN: "the host name does not resolve",
  ECONNRESET: "the connection was reset",
  EHOSTUNREACH: "the host cannot be reached",
  ENETUNREACH: "the network cannot be reached",
  ERR_SSL_WRONG_VERSION_NUMBER: "it does not speak HTTPS",
  EPROTO: "it does not speak HTTPS",
};

function networkReason(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return `no answer within ${timeoutMs / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const code = cause?.code ?? (error as { code?: string })?.code;
  if (code && NETWORK_REASONS[code]) return NETWORK_REASONS[code];
  return cause?.message || (error instanceof Error ? error.message : String(error));
}

/** What the server said in an error body: the OpenAI `error.message`, else the start of the text. */
function errorDetail(body: string): string {
  try {
    const message = JSON.parse(body)?.error?.message;
    if (typeof message === "string" && message) return message.slice(0, 200);
  } catch {}
  const text = body
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.slice(0, 120);
}

/**
 * Null when `POST <baseUrl>/chat/completions` (one short message, streamed, cut after the headers) answers as the API does;
 * otherwise one sentence naming the URL and the reason.
 */
export async function baseUrlProblem({
  baseUrl,
  model,
  apiKey,
  timeoutMs = 15_000,
}: BaseUrlProbe): Promise<string | null> {
  const unusable = (reason: string) => `The model server at ${baseUrl} cannot be used: ${reason}.`;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return unusable("it is not a URL (expected something like http://localhost:11434/v1)");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return unusable(`it is not an http or https URL (${url.protocol})`);
  const endpoint = `${baseUrl.replace(/\/+$/, "")}/chat/completions`;
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      // No max_tokens: some models refuse it (max_completion_tokens); the stream is cut once its headers are in.
      body: JSON.stringify({ model, messages: [{ role: "user", content: "Say OK." }], stream: true }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return unusable(networkReason(error, timeoutMs));
  }
  const type = response.headers.get("content-type") ?? "";
  if (!response.ok) {
    const detail = errorDetail(await response.text().catch(() => ""));
    const hint =
      response.status === 401 || response.status === 403
        ? " (check --api-key)"
        : response.status === 404
          ? " (is the path right, e.g. …/v1, and the --model name?)"
          : "";
    return unusable(`POST ${endpoint} answered HTTP ${response.status}${detail ? `: ${detail}` : ""}${hint}`);
  }
  await response.body?.cancel().catch(() => {});
  if (!/text\/event-stream|application\/json/i.test(type)) {
    return unusable(
      `POST ${endpoint} answered ${type || "without a content type"}, not the OpenAI Chat Completions API`,
    );
  }
  return null;
}
