// Every message that names an environment variable names it to the operator only (lib/operator-words.ts): rendered
// for the operator it holds the variable, for anyone else it holds none, and no note's marks show either way.
import { describe, expect, it } from "vitest";
import { refusedHost } from "@/lib/ai/outbound-address";
import { createMcpServerSchema } from "@/lib/api/mcp-schemas";
import { OIDC_NOT_CONFIGURED } from "@/lib/auth/oidc-errors";
import { checkImagesAccepted } from "@/lib/chat/attachments";
import { cutOutsideNotes, operatorNote, wordsFor } from "@/lib/operator-words";
import { BUDGET_SOURCE_WORDS, DEMO_MODEL_WORDS } from "./operator-screen-words";

const VARIABLE = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/;
const MARKS = /[\u27e6\u27e7]/;

function thrownMessage(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("nothing was thrown");
}

const urlIssue = (url: string) => {
  const parsed = createMcpServerSchema.safeParse({ name: "files", url });
  return parsed.success ? "" : (parsed.error.issues[0]?.message ?? "");
};

const MESSAGES: Array<[where: string, message: string, person: string]> = [
  [
    "the empty state under the demo model",
    DEMO_MODEL_WORDS,
    "You're talking to the offline demo model — rule-based, no network needed. Whoever runs this Hintline server can connect a real one.",
  ],
  ["the workspace page's budget line", BUDGET_SOURCE_WORDS, "The budget is the server's setting,"],
  [
    "an MCP server or state source at a loopback address",
    refusedHost("127.0.0.1")?.message ?? "",
    "127.0.0.1 is a loopback address; loopback, private and link-local addresses are refused on this server (whoever runs it can allow them)",
  ],
  [
    "an MCP server that would run a program",
    urlIssue("stdio:///usr/bin/server"),
    "must be an http or https URL (not stdio); servers that run a program are set up only by whoever runs this Hintline server",
  ],
  [
    "OpenID Connect sign-in when it is not set up",
    OIDC_NOT_CONFIGURED,
    "OpenID Connect sign-in is not configured on this server.",
  ],
  [
    "an image for a model Hintline does not know takes images",
    thrownMessage(() => checkImagesAccepted([{ type: "file", mediaType: "image/png" }], "openai-compatible/local-llm")),
    "The model openai-compatible/local-llm does not take images, so the image attachment was not sent. Switch to a model that does (e.g. gpt-4o, Claude, Gemini), or attach text instead.",
  ],
];

describe("words only the operator can act on", () => {
  it.each(MESSAGES)("%s: the variable for the operator, who can fix it for anyone else", (_, message, person) => {
    const forOperator = wordsFor(message, true);
    expect(forOperator).toMatch(VARIABLE);
    expect(forOperator).not.toMatch(MARKS);
    expect(wordsFor(message, false)).toBe(person);
    expect(person).not.toMatch(VARIABLE);
  });

  it("a message cut short is cut before a note, never through it", () => {
    const message = `A long reason${operatorNote(" (SET_THIS=1)", " (ask)")} and more`;
    expect(cutOutsideNotes(message, 20)).toBe("A long reason");
    expect(cutOutsideNotes(message, 10)).toBe("A long rea");
    expect(wordsFor(cutOutsideNotes(message, message.length), false)).toBe("A long reason (ask) and more");
  });
});
