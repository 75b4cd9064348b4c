import { describe, expect, it } from "vitest";
import { exportManySchema, importBundleSchema, isBundle } from "./organise-schemas";
import { patchConversationSchema } from "./schemas";

const issue = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  result.success ? null : { path: result.error!.issues[0]!.path.join("."), message: result.error!.issues[0]!.message };

describe("PATCH { pinned, archived }", () => {
  it("takes true and false, alone or with other fields", () => {
    expect(patchConversationSchema.parse({ pinned: true })).toEqual({ pinned: true });
    expect(patchConversationSchema.parse({ archived: false, title: "x" })).toEqual({ archived: false, title: "x" });
  });

  it("refuses anything but a boolean, naming the field and what was sent", () => {
    for (const [body, path, got] of [
      [{ pinned: "true" }, "pinned", '"true"'],
      [{ archived: 1 }, "archived", "1"],
      [{ archived: null }, "archived", "null"],
      [{ pinned: {} }, "pinned", "{}"],
    ] as const) {
      expect(issue(patchConversationSchema.safeParse(body))).toEqual({
        path,
        message: `must be true or false (got ${got})`,
      });
    }
    expect(issue(patchConversationSchema.safeParse({}))?.message).toMatch(/pinned and\/or archived/);
    expect(issue(patchConversationSchema.safeParse({ pinned: undefined }))?.message).toMatch(/send title/);
  });
});

describe("export of several", () => {
  it("takes 1 to 100 ids of the id form", () => {
    expect(exportManySchema.parse({ ids: ["a", "b"] })).toEqual({ ids: ["a", "b"] });
    expect(issue(exportManySchema.safeParse({ ids: [] }))).toEqual({
      path: "ids",
      message: "must name at least one conversation",
    });
    expect(issue(exportManySchema.safeParse({ ids: Array.from({ length: 101 }, (_, i) => `c${i}`) }))?.message).toBe(
      "must name at most 100 conversations",
    );
    expect(issue(exportManySchema.safeParse({ ids: ["ok", "no/slash"] }))?.path).toBe("ids.1");
    expect(issue(exportManySchema.safeParse({ ids: "a" }))).toEqual({
      path: "ids",
      message: "must be an array of conversation ids",
    });
    expect(exportManySchema.safeParse({ ids: ["a"], more: 1 }).success).toBe(false);
  });

  it("tells a bundle from one conversation's export, and checks each of its conversations", () => {
    expect(isBundle({ version: 1, conversations: [] })).toBe(true);
    expect(isBundle({ version: 1, conversation: {} })).toBe(false);
    expect(isBundle([{ conversations: [] }])).toBe(false);
    expect(isBundle(null)).toBe(false);
    // An inherited field is not the body's own.
    expect(isBundle(Object.create({ conversations: [] }))).toBe(false);
    const one = { title: "t", messages: [] };
    expect(importBundleSchema.parse({ version: 1, conversations: [one] }).conversations[0]).toMatchObject({
      title: "t",
      pinned: false,
      archived: false,
    });
    expect(issue(importBundleSchema.safeParse({ version: 1, conversations: [] }))?.message).toBe(
      "must hold at least one conversation",
    );
    expect(
      issue(importBundleSchema.safeParse({ version: 1, conversations: [one, { ...one, pinned: "yes" }] }))?.path,
    ).toBe("conversations.1.pinned");
    expect(issue(importBundleSchema.safeParse({ version: 2, conversations: [one] }))?.path).toBe("version");
  });
});
