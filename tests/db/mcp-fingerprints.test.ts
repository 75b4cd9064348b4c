// MCP tool fingerprints of a server that lists a thousand tools and more, against a real database (SQLite and
// PostgreSQL): the first listing records them all (SQLite's driver refused the one statement naming 1,000 tools, so
// the status view answered 500), two listings racing record each tool once, and changes, changes taken back and
// tools gone are written in batches.
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb } = await import("@/lib/db/client");
const { listMcpCatalog, listMcpFingerprints } = await import("@/lib/db/mcp-fingerprints");
const { createWorkspace } = await import("@/lib/db/workspaces");
const { reviewMcpDefinitions } = await import("@/lib/chat/mcp-drift");

afterAll(async () => {
  await disconnectDb();
});

let n = 0;
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${n++}`;
const tools = (count: number, description = (i: number) => `Tool ${i}.`) =>
  Array.from({ length: count }, (_, i) => ({
    name: `tool_${i}`,
    description: description(i),
    inputSchema: { type: "object", properties: { n: { type: "number" } } },
  }));

describe(`MCP fingerprints of long listings on ${inject("databaseKind")}`, () => {
  it("records 1,500 tools seen at once by two listings racing, each once, and then nothing is new", {
    timeout: 60_000,
  }, async () => {
    const workspace = (await createWorkspace({ id: unique("ws"), name: unique("Lists"), max: 1_000 })) as {
      id: string;
    };
    const listing = tools(1_500);
    const [a, b] = await Promise.all([
      reviewMcpDefinitions(workspace.id, "many", listing, { complete: true }),
      reviewMcpDefinitions(workspace.id, "many", listing, { complete: true }),
    ]);
    expect([a.size, b.size]).toEqual([0, 0]);
    const rows = await listMcpFingerprints({ workspaceId: workspace.id, server: "many" });
    expect(rows).toHaveLength(1_500);
    expect(new Set(rows.map((r) => r.tool)).size).toBe(1_500);
    expect(rows.every((r) => r.pendingHash === null)).toBe(true);
    expect((await listMcpCatalog({ workspaceId: workspace.id })).filter((r) => r.listed)).toHaveLength(1_500);
    expect((await reviewMcpDefinitions(workspace.id, "many", listing, { complete: true })).size).toBe(0);
  });

  it("sets 1,200 changes waiting, clears those taken back, and marks 1,500 tools gone and back", {
    timeout: 60_000,
  }, async () => {
    const workspace = (await createWorkspace({ id: unique("ws"), name: unique("Changes"), max: 1_000 })) as {
      id: string;
    };
    await reviewMcpDefinitions(workspace.id, "many", tools(2_000), { complete: true });
    const changed = tools(2_000, (i) => (i < 1_200 ? `Tool ${i}, changed.` : `Tool ${i}.`));
    const drifted = await reviewMcpDefinitions(workspace.id, "many", changed, { complete: true });
    expect(drifted.size).toBe(1_200);
    expect(drifted.get("tool_7")?.current).toContain("Tool 7, changed.");
    let rows = await listMcpFingerprints({ workspaceId: workspace.id, server: "many" });
    expect(rows.filter((r) => r.pendingHash !== null)).toHaveLength(1_200);

    // The server takes the changes back and lists only its first 500 tools (those gone keep what waits for them).
    expect((await reviewMcpDefinitions(workspace.id, "many", tools(500), { complete: true })).size).toBe(0);
    rows = await listMcpFingerprints({ workspaceId: workspace.id, server: "many" });
    const listed = new Set(
      (await listMcpCatalog({ workspaceId: workspace.id })).filter((r) => r.listed).map((r) => r.tool),
    );
    expect(listed.size).toBe(500);
    expect(rows.filter((r) => listed.has(r.tool) && r.pendingHash !== null)).toEqual([]);
    expect(rows.filter((r) => r.pendingHash !== null)).toHaveLength(700);

    // All of them again, as approved: every tool is listed once more and nothing waits.
    await reviewMcpDefinitions(workspace.id, "many", tools(2_000), { complete: true });
    rows = await listMcpFingerprints({ workspaceId: workspace.id, server: "many" });
    expect((await listMcpCatalog({ workspaceId: workspace.id })).filter((r) => r.listed)).toHaveLength(2_000);
    expect(rows.filter((r) => r.pendingHash !== null)).toEqual([]);
  });
});
