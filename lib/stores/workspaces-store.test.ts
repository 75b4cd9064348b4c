import { describe, expect, it } from "vitest";
import { workspaceLabel } from "./workspaces-store.ts";

describe("a workspace's label in the switcher", () => {
  it("marks a shared workspace, names the account a workspace came from, and is the name otherwise", () => {
    expect(workspaceLabel({ name: "Team", shared: true })).toBe("Team (shared)");
    expect(workspaceLabel({ name: "Team", shared: true, owner: "Ada" })).toBe("Team (shared)");
    expect(workspaceLabel({ name: "default", owner: "Bob" })).toBe("default (Bob)");
    expect(workspaceLabel({ name: "Notes" })).toBe("Notes");
  });
});
