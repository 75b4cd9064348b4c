import { describe, expect, it } from "vitest";
import { mergeWorkspaceSettings, resolveWorkspaceSettings } from "./workspace-settings.ts";

describe("a workspace's settings", () => {
  it("default to memory from compressions on, whatever is stored that is not a boolean", () => {
    for (const stored of [
      null,
      undefined,
      {},
      [],
      "x",
      { memory: null },
      { memory: { fromCompression: "no" } },
      { memory: [] },
    ]) {
      expect(resolveWorkspaceSettings(stored)).toEqual({ memory: { fromCompression: true } });
    }
    expect(resolveWorkspaceSettings({ memory: { fromCompression: false }, other: 1 })).toEqual({
      memory: { fromCompression: false },
    });
  });

  it("change only what a patch names", () => {
    const off = mergeWorkspaceSettings(resolveWorkspaceSettings(null), { memory: { fromCompression: false } });
    expect(off).toEqual({ memory: { fromCompression: false } });
    expect(mergeWorkspaceSettings(off, {})).toEqual(off);
    expect(mergeWorkspaceSettings(off, { memory: {} })).toEqual(off);
  });
});
