import { describe, expect, it } from "vitest";
import { routeOf } from "./request-log.ts";

describe("routeOf", () => {
  it("replaces ids and names, so that neither reaches the log", () => {
    expect(routeOf("/api/conversations")).toBe("/api/conversations");
    expect(routeOf("/api/conversations/import")).toBe("/api/conversations/import");
    expect(routeOf("/api/conversations/abc/tasks/7")).toBe("/api/conversations/:id/tasks/:id");
    expect(routeOf("/api/workspaces/w1/skills/secret-skill")).toBe("/api/workspaces/:id/skills/:id");
    expect(routeOf("/api/workspaces/w1/knowledge/notes/private.md")).toBe("/api/workspaces/:id/knowledge/*");
  });
});
