import { describe, expect, it } from "vitest";
import { branchPoints, parseArchived, parseRecord, START_ANCHOR } from "./branches.ts";

const archived = { messages: [], nested: [] };

describe("branch points", () => {
  it("shows ‹ index/count › on the first active message after each anchor with alternatives", () => {
    const records = [
      { anchorId: "a1", ordinal: 1, archived },
      { anchorId: "a1", ordinal: 3, archived: null },
      { anchorId: "a1", ordinal: 2, archived },
      { anchorId: START_ANCHOR, ordinal: 1, archived: null },
      { anchorId: START_ANCHOR, ordinal: 2, archived },
      // A single alternative is no branch point.
      { anchorId: "u2", ordinal: 1, archived: null },
    ];
    expect(branchPoints(records, ["u0", "a1", "u2", "a3"])).toEqual([
      { anchorId: START_ANCHOR, messageId: "u0", index: 1, count: 2, ordinals: [1, 2] },
      { anchorId: "a1", messageId: "u2", index: 3, count: 3, ordinals: [1, 2, 3] },
    ]);
  });

  it("leaves out an anchor that is not in the active messages, or one with nothing after it", () => {
    const records = [
      { anchorId: "gone", ordinal: 1, archived },
      { anchorId: "gone", ordinal: 2, archived: null },
      { anchorId: "a1", ordinal: 1, archived },
      { anchorId: "a1", ordinal: 2, archived: null },
    ];
    expect(branchPoints(records, ["u0", "a1"])).toEqual([]);
  });
});

describe("stored alternatives", () => {
  it("are read defensively", () => {
    const message = {
      id: "m1",
      role: "user",
      parts: [{ type: "text", text: "hi" }],
      metadata: {},
      status: "complete",
      createdAt: "2026-12-01T10:00:00.000Z",
    };
    expect(parseArchived(null)).toBeNull();
    expect(
      parseArchived({
        messages: [message, { id: 1 }, "x"],
        nested: [{ anchorId: "m1", ordinal: 1, archived: null }, { bad: true }],
        compression: { summary: "s" },
      }),
    ).toEqual({
      messages: [message],
      nested: [{ anchorId: "m1", ordinal: 1, archived: null }],
      compression: { summary: "s" },
    });
    expect(parseRecord({ anchorId: "x", ordinal: 2, archived: { messages: "no" } })).toBeNull();
  });

  it("name the key of their archived rows (the messages are not in the record), nested ones too", () => {
    const nested = { anchorId: "m3", ordinal: 1, archived: { key: "k2", nested: [] } };
    expect(
      parseArchived({
        key: "k1",
        nested: [nested, { anchorId: "m5", ordinal: 2, archived: null }],
        compression: { summary: "s" },
      }),
    ).toEqual({
      key: "k1",
      messages: [],
      nested: [
        { anchorId: "m3", ordinal: 1, archived: { key: "k2", messages: [], nested: [] } },
        { anchorId: "m5", ordinal: 2, archived: null },
      ],
      compression: { summary: "s" },
    });
    // A key wins over stray messages; an empty key is no key.
    expect(parseArchived({ key: "k1", messages: [{ id: "m1" }] })?.messages).toEqual([]);
    expect(parseArchived({ key: "" })).toBeNull();
  });
});
