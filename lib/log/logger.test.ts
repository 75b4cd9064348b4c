import { describe, expect, it } from "vitest";
import { configuredSecrets, scrub } from "../secrets.ts";
import { createLogger, prettyLine, serializeError } from "./logger.ts";

function capture() {
  const lines: string[] = [];
  return { lines, logger: createLogger({ write: (line: string) => void lines.push(line) }) };
}

describe("logger", () => {
  it("writes JSON lines with the level, message and fields", () => {
    const { lines, logger } = capture();
    logger.info({ conversationId: "c1", steps: 2 }, "reply");
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 30,
      msg: "reply",
      conversationId: "c1",
      steps: 2,
      pid: process.pid,
    });
  });

  it("logs an error as its first line, frames and cause, scrubbed of anything shaped like a secret", () => {
    const cause = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const error = new Error(
      "Invalid call with Authorization: Bearer abc.def-123 and api_key=sk-live-abcdef123456\n{ text: 'what the person wrote' }",
      { cause },
    );
    const { lines, logger } = capture();
    logger.warn({ err: error }, "lease renewal failed");
    const line = lines[0]!;
    expect(line).not.toContain("abc.def-123");
    expect(line).not.toContain("sk-live-abcdef123456");
    expect(line).not.toContain("what the person wrote");
    expect(JSON.parse(line).err).toMatchObject({
      type: "Error",
      cause: { code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:5432" },
    });
    expect(JSON.parse(line).err.stack).toMatch(/^at /);
  });

  it("keeps a Prisma error's reason (its last line) but not the arguments it quotes", () => {
    const error = Object.assign(
      new Error(
        "\nInvalid `prisma.message.create()` invocation:\n\n{ data: { parts: 'private words' } }\n\nTransaction API error: Unable to start a transaction in the given time.",
      ),
      { code: "P2028" },
    );
    expect(serializeError(error)).toMatchObject({
      code: "P2028",
      message: "Invalid `prisma.message.create()` invocation:",
      reason: "Transaction API error: Unable to start a transaction in the given time.",
    });
    expect(JSON.stringify(serializeError(error))).not.toContain("private words");
  });

  it("censors fields named like a secret or a text", () => {
    const { lines, logger } = capture();
    logger.info({ token: "t0k", cookie: "c00k", text: "hello", nested: { apiKey: "k3y" } }, "x");
    for (const secret of ["t0k", "c00k", "hello", "k3y"]) expect(lines[0]).not.toContain(secret);
  });

  it("scrubs bearer tokens, sk- and Google keys, key=value secrets and the configured keys", () => {
    expect(scrub("Bearer xyz token=abc sk-ABCDEF123456 cookie: s=1")).toBe(
      "Bearer [redacted] token=[redacted] sk-[redacted] cookie: [redacted]",
    );
    expect(scrub("GET /v1beta/models/m?alt=sse&key=AIzaSyA-0123456789abcdefghijklmnop", [])).toBe(
      "GET /v1beta/models/m?alt=sse&key=[redacted]",
    );
    expect(scrub("invalid AIzaSyA-0123456789abcdefghijklmnop here", [])).toBe("invalid AIza[redacted] here");
    expect(scrub("Incorrect API key provided: local-key-1234.", ["local-key-1234"])).toBe(
      "Incorrect API key provided: [redacted].",
    );
    expect(
      configuredSecrets({
        OPENAI_API_KEY: " local-key-1234 ",
        ANTHROPIC_API_KEY: "short",
        HINTLINE_AUTH_TOKEN: "local-key-1234-and-more",
      }),
    ).toEqual(["local-key-1234-and-more", "local-key-1234"]);
    expect(serializeError("plain\nsecond line")).toEqual({ message: "plain" });
  });

  it("prints a readable line on a terminal", () => {
    expect(
      prettyLine(
        JSON.stringify({ level: 40, time: Date.UTC(2026, 0, 1, 12, 0, 0), pid: 1, msg: "request", status: 503 }),
      ),
    ).toBe("12:00:00.000 WARN  request status=503\n");
  });
});
