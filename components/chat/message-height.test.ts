import { describe, expect, it } from "vitest";
import type { ChatMessage } from "@/lib/chat-message";
import { estimateMessageHeight } from "./message-height";

const text = (role: "user" | "assistant", value: string): ChatMessage => ({
  id: "m",
  role,
  parts: [{ type: "text", text: value }],
});

describe("estimateMessageHeight", () => {
  it("grows with the text's lines and never goes below a row's minimum", () => {
    const short = estimateMessageHeight(text("assistant", "Hi."));
    const long = estimateMessageHeight(text("assistant", "word ".repeat(400)));
    expect(short).toBeGreaterThanOrEqual(40);
    expect(long).toBeGreaterThan(short * 5);
    expect(estimateMessageHeight(text("user", "a\nb\nc"))).toBeGreaterThan(estimateMessageHeight(text("user", "abc")));
  });

  it("gives a missing message a default", () => {
    expect(estimateMessageHeight(undefined)).toBe(60);
  });
});
