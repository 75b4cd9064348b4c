// Where a conversation's skills and agents come from besides its workspace (its owner's own level and default
// workspace), against a real database (SQLite and PostgreSQL): the one status query a step runs counts a change to any
// of them and to nothing else, and a user's own level is no workspace in any list or count.
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb } = await import("@/lib/db/client");
const { ensureConversation } = await import("@/lib/db/conversations");
const { definitionLevels, ensureUserLevel, personalDefaultWorkspace } = await import("@/lib/db/ownership");
const { bumpWorkspaceRevision, workspaceViewStatus } = await import("@/lib/db/workspace-views");
const { createWorkspace, listWorkspaces } = await import("@/lib/db/workspaces");

afterAll(async () => {
  await disconnectDb();
});

let n = 0;
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${n++}`;
const revisionOf = async (conversationId: string) => (await workspaceViewStatus({ conversationId }))!.revision;

describe(`a conversation's definition levels on ${inject("databaseKind")}`, () => {
  it("counts the owner's default workspace and own level, and not another user's", async () => {
    const [me, other] = [unique("user"), unique("user")];
    const team = (await createWorkspace({
      id: unique("ws"),
      name: unique("Team"),
      max: 100,
      ownerId: other,
      shared: true,
    })) as { id: string };
    const mine = await personalDefaultWorkspace({ userId: me });
    const theirs = await personalDefaultWorkspace({ userId: other });
    const id = unique("conv");
    await ensureConversation({ id, workspaceId: team.id, ownerId: me });
    expect(await definitionLevels({ workspaceId: team.id, ownerId: me })).toEqual({ user: `user-${me}`, base: mine });
    expect(await workspaceViewStatus({ conversationId: id })).toMatchObject({
      workspaceId: team.id,
      ownerId: me,
      revision: "0:0",
    });

    // No own level yet: two counters; made and changed, a third.
    await ensureUserLevel({ userId: me });
    expect(await revisionOf(id)).toBe("0:0");
    await bumpWorkspaceRevision({ workspaceId: `user-${me}` });
    expect(await revisionOf(id)).toBe("0:0:1");
    await bumpWorkspaceRevision({ workspaceId: mine });
    expect(await revisionOf(id)).toBe("0:1:1");
    await bumpWorkspaceRevision({ workspaceId: team.id });
    expect(await revisionOf(id)).toBe("1:1:1");
    // Another user's default and own level, and the legacy "default", are not this conversation's.
    await ensureUserLevel({ userId: other });
    for (const elsewhere of [theirs, `user-${other}`, "default"])
      await bumpWorkspaceRevision({ workspaceId: elsewhere });
    expect(await revisionOf(id)).toBe("1:1:1");
    // The first test of the file also opens the connection: given room on a loaded machine.
  }, 30_000);

  it("gives a conversation of no owner default's level only, and one in its owner's default no second copy of it", async () => {
    const ws = (await createWorkspace({ id: unique("ws"), name: unique("Solo"), max: 100 })) as { id: string };
    expect(await definitionLevels({ workspaceId: ws.id, ownerId: null })).toEqual({ user: null, base: "default" });
    expect(await definitionLevels({ workspaceId: "default", ownerId: null })).toEqual({ user: null, base: null });
    const id = unique("conv");
    await ensureConversation({ id, workspaceId: ws.id });
    const before = (await revisionOf(id)).split(":").map(Number);
    await bumpWorkspaceRevision({ workspaceId: "default" });
    expect((await revisionOf(id)).split(":").map(Number)).toEqual([before[0], before[1]! + 1]);

    const me = unique("user");
    const mine = await personalDefaultWorkspace({ userId: me });
    expect(await definitionLevels({ workspaceId: mine, ownerId: me })).toEqual({ user: `user-${me}`, base: null });
  });

  it("keeps a user's own level out of the workspace lists and the workspace limit", async () => {
    const me = unique("user");
    await personalDefaultWorkspace({ userId: me });
    await ensureUserLevel({ userId: me });
    const listed = (await listWorkspaces({ userId: me })).map((w) => w.id);
    expect(listed).toContain(`default-${me}`);
    expect(listed).not.toContain(`user-${me}`);
    expect((await listWorkspaces()).some((w) => w.id.startsWith("user-"))).toBe(false);
    // A limit of 2: the default and one more, the own level not counted.
    expect(await createWorkspace({ id: unique("ws"), name: "second", max: 2, ownerId: me })).toMatchObject({
      name: "second",
    });
    expect(await createWorkspace({ id: unique("ws"), name: "third", max: 2, ownerId: me })).toBe("limit");
  });
});
