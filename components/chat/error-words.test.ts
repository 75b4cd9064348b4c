import { describe, expect, it } from "vitest";
import { errorInWords } from "./error-words";

const apiError = (statusCode: number, body: string) => Object.assign(new Error(body), { statusCode });

describe("errorInWords", () => {
  it("says the server can't be reached instead of a browser's network error", () => {
    const expected = "Can't reach the server — your message is kept; retry when it is back.";
    for (const message of [
      "Failed to fetch",
      "TypeError: Failed to fetch",
      "NetworkError when attempting to fetch resource.",
      "Load failed",
      "fetch failed",
      "net::ERR_CONNECTION_REFUSED",
    ]) {
      expect(errorInWords(new TypeError(message))).toBe(expected);
    }
    expect(errorInWords(new Error("Failed to fetch the chat response."))).toBe(expected);
  });

  it("words server errors (5xx) with the status, keeping the server's own message when it sent one", () => {
    expect(
      errorInWords(
        apiError(
          500,
          '{"error":{"code":"internal_error","message":"Something went wrong on the server. Please try again."}}',
        ),
      ),
    ).toBe(
      "Something went wrong on the server. Please try again (HTTP 500) — your message is kept; retry in a moment.",
    );
    expect(errorInWords(apiError(502, "<html><body><h1>502 Bad Gateway</h1></body></html>"))).toBe(
      "The server is not answering right now (HTTP 502) — your message is kept; retry when it is back.",
    );
    expect(errorInWords(apiError(500, ""))).toBe(
      "The server ran into a problem (HTTP 500) — your message is kept; retry in a moment.",
    );
    expect(
      errorInWords(
        apiError(507, '{"error":{"code":"disk_full","message":"The server\'s disk is full: nothing was saved."}}'),
      ),
    ).toContain("The server's disk is full: nothing was saved (HTTP 507) — your message is kept");
  });

  it("shows a refusal's (4xx) message from its JSON body, and plain words otherwise", () => {
    expect(
      errorInWords(
        apiError(
          409,
          '{"error":{"code":"conflict","message":"A reply is already being written in this conversation."}}',
        ),
      ),
    ).toBe("A reply is already being written in this conversation.");
    expect(errorInWords(apiError(401, '{"error":{"code":"unauthorized","message":"Sign in first."}}'))).toBe(
      "You are signed out — sign in again, then retry; your message is kept.",
    );
    expect(errorInWords(apiError(429, "slow down"))).toBe(
      "Too many requests — wait a moment, then retry; your message is kept.",
    );
    expect(errorInWords(apiError(404, "<html>nope</html>"))).toBe("The server refused this message (HTTP 404).");
  });

  it("passes a reply's stored reason or a stream's error text through, and never shows markup or nothing", () => {
    const reason = "The model provider failed (HTTP 500). Gave up after 1 retry.";
    expect(errorInWords(reason)).toBe(reason);
    expect(errorInWords(new Error(reason))).toBe(reason);
    expect(errorInWords('{"error":{"message":"Bad thing."}}')).toBe("Bad thing.");
    expect(errorInWords("<!DOCTYPE html><html>…</html>")).toBe(
      "The server answered with an error page instead of a reply — your message is kept; retry in a moment.",
    );
    expect(errorInWords(undefined)).toBe("Something went wrong — your message is kept; retry.");
    expect(errorInWords(new Error(""))).toBe("Something went wrong — your message is kept; retry.");
  });
});
