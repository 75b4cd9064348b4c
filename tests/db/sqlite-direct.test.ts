// The direct SQLite path (lib/db/sqlite-direct.ts) against the Prisma path it stands in for, on one real SQLite file:
// the same calls through each must store the same bytes and read back the same records.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ChatMessage } from "@/lib/chat-message";

process.env.DATABASE_URL = inject("databaseUrl");
const onSqlite = inject("databaseKind") === "sqlite";
// vitest.config.ts leaves this file out of the PostgreSQL project (a skip would show as a test that did not run).
if (!onSqlite) throw new Error("tests/db/sqlite-direct.test.ts runs on SQLite only");

const { disconnectDb, getDb, sqliteDirect } = await import("@/lib/db/client");
const { setSqliteDirectEnabled } = await import("@/lib/db/sqlite-direct");
const conversations = await import("@/lib/db/conversations");
const messages = await import("@/lib/db/messages");
const tasks = await import("@/lib/db/tasks");
const views = await import("@/lib/db/workspace-views");
const baselines = await import("@/lib/db/cache-baselines");
const subagents = await import("@/lib/db/subagents");
const mcpServers = await import("@/lib/db/mcp-servers");
const mcpTools = await import("@/lib/db/conversation-mcp-tools");
const workspaces = await import("@/lib/db/workspaces");
const { importConversation } = await import("@/lib/chat/conversation-view");
const { importSchema } = await import("@/lib/api/schemas");

let seq = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${seq++}`;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

/** Runs `fn` with the direct path on or off. */
async function via<T>(direct: boolean, fn: () => Promise<T>): Promise<T> {
  setSqliteDirectEnabled(direct);
  try {
    return await fn();
  } finally {
    setSqliteDirectEnabled(true);
  }
}

let raw: Database.Database;
type RawRow = Record<string, unknown>;
// memoryDueAt: the time of the last append (lib/db/memory-marks.ts; null before any), stored as Prisma stores a time.
const TIMES = ["createdAt", "updatedAt", "memoryDueAt"];

/** A stored row with its keys and timestamps checked and blanked, so two conversations' rows can be compared. */
function comparable(row: RawRow | undefined, conversationId: string): RawRow {
  expect(row).toBeDefined();
  const out: RawRow = {};
  for (const [key, value] of Object.entries(row!)) {
    if (key === "memoryDueAt" && value === null) out[key] = null;
    else if (TIMES.includes(key)) {
      expect(value, `${key} is stored as Prisma stores it`).toMatch(ISO_TIME);
      out[key] = "<time>";
    } else if (value === conversationId) out[key] = "<conversation>";
    else out[key] = value;
  }
  return out;
}

const storedConversation = (id: string) =>
  comparable(raw.prepare(`SELECT * FROM "Conversation" WHERE id = ?`).get(id) as RawRow, id);
const storedMessages = (id: string) =>
  (raw.prepare(`SELECT * FROM "Message" WHERE "conversationId" = ? ORDER BY position`).all(id) as RawRow[]).map((r) =>
    comparable(r, id),
  );
const storedPlans = (id: string) =>
  (raw.prepare(`SELECT * FROM "PlanVersion" WHERE "conversationId" = ? ORDER BY version`).all(id) as RawRow[]).map(
    (r) => comparable(r, id),
  );
const storedTasks = (id: string) =>
  (raw.prepare(`SELECT * FROM "Task" WHERE "conversationId" = ? ORDER BY position`).all(id) as RawRow[]).map((r) =>
    comparable(r, id),
  );

/** One turn's worth of writes, as the chat route makes them. */
async function turn(conversationId: string) {
  const person: ChatMessage = {
    id: "m1",
    role: "user",
    parts: [{ type: "text", text: "Hi <b>there</b> ✓" }],
    metadata: { createdAt: "2026-11-30T10:00:00.123Z" },
  };
  const reply: ChatMessage = { id: "r1", role: "assistant", parts: [], metadata: { model: "fake-model" } };
  const conversation = await conversations.ensureConversation({
    id: conversationId,
    settings: { injection: { timezone: "Europe/Berlin" } },
  });
  const appended = await messages.appendMessages({
    conversationId,
    messages: [{ message: person }, { message: reply, status: "streaming" }],
    title: "Hi there",
    expectedSeq: conversation.messageSeq,
  });
  await messages.updateMessage({
    conversationId,
    id: "r1",
    parts: [{ type: "step-start" }, { type: "text", text: "partial" }],
  });
  await conversations.setAgentState({
    id: conversationId,
    agentState: { lastCall: { inputTokens: 10, outputTokens: 2, messageCount: 1 } },
  });
  const parts: ChatMessage["parts"] = [{ type: "step-start" }, { type: "text", text: "Hello!", state: "done" }];
  await messages.updateMessage({
    conversationId,
    id: "r1",
    parts,
    metadata: { model: "fake-model" },
    status: "complete",
  });
  await messages.appendMessages({
    conversationId,
    messages: [{ message: { id: "m2", role: "user", parts: [{ type: "text", text: "again" }] } }],
  });
  return { conversation, appended };
}

beforeAll(async () => {
  await getDb();
  raw = new Database(process.env.DATABASE_URL!.replace(/^file:/, ""), { readonly: true });
});
afterAll(async () => {
  raw?.close();
  await disconnectDb();
});

describe("the direct SQLite path", () => {
  it("is what a query uses on SQLite, except while a Prisma transaction holds the connection", async () => {
    const db = await getDb();
    expect(sqliteDirect()).toBeDefined();
    await db.$transaction(async (tx) => {
      await tx.conversation.count();
      expect(sqliteDirect()).toBeUndefined();
    });
    expect(sqliteDirect()).toBeDefined();
  });

  it("stores a turn byte for byte as the Prisma path does", async () => {
    const [a, b] = [newId("direct"), newId("prisma")];
    const direct = await via(true, () => turn(a));
    const prisma = await via(false, () => turn(b));
    expect(storedConversation(a)).toEqual(storedConversation(b));
    expect(storedMessages(a)).toEqual(storedMessages(b));
    expect(storedMessages(a).map((m) => m.position)).toEqual([0, 1, 2]);
    // What the append returns (the history cache keeps it) is the same too, but for the reply's creation time (now).
    const withoutNow = (list: ChatMessage[]) =>
      list.map((m) => (m.id === "r1" ? { ...m, metadata: { ...m.metadata, createdAt: "<now>" } } : m));
    expect(withoutNow(direct.appended)).toEqual(withoutNow(prisma.appended));
    expect(direct.appended[0]?.metadata?.createdAt).toBe("2026-11-30T10:00:00.123Z");
    expect({ ...direct.conversation, id: "", createdAt: "", updatedAt: "" }).toEqual({
      ...prisma.conversation,
      id: "",
      createdAt: "",
      updatedAt: "",
    });
  });

  it("creates a conversation in the given workspace as the Prisma path does, and an existing one keeps its own", async () => {
    const db = await getDb();
    const workspaceId = newId("ws");
    await db.workspace.create({ data: { id: workspaceId, name: workspaceId } });
    const [a, b] = [newId("direct"), newId("prisma")];
    const made = await via(true, () => conversations.ensureConversation({ id: a, workspaceId }));
    await via(false, () => conversations.ensureConversation({ id: b, workspaceId }));
    expect(made.workspaceId).toBe(workspaceId);
    expect(storedConversation(a)).toEqual(storedConversation(b));
    for (const direct of [true, false]) {
      const again = await via(direct, () => conversations.ensureConversation({ id: a, workspaceId: "default" }));
      expect(again.workspaceId).toBe(workspaceId);
      expect((await via(direct, () => conversations.getConversation({ id: b })))?.workspaceId).toBe(workspaceId);
    }
    const plain = await via(true, () => conversations.ensureConversation({ id: newId("direct") }));
    expect(plain.workspaceId).toBe("default");
  });

  it("stores and reads a conversation's workspace view as the Prisma path does", async () => {
    const [a, b] = [newId("direct"), newId("prisma")];
    const state = {
      name: "default",
      instructions: 'Ünïcode \u2028 and "quotes"',
      memory: [{ id: "m1", text: "x" }],
      knowledgeIndex: "",
      files: [],
      skills: [],
    };
    for (const [id, direct] of [
      [a, true],
      [b, false],
    ] as const) {
      await conversations.ensureConversation({ id });
      await via(direct, () =>
        views.putWorkspaceView({ conversationId: id, frozenId: "f1", frozen: state, seenRevision: "0:0", seen: state }),
      );
      await via(direct, () =>
        views.putWorkspaceView({
          conversationId: id,
          frozenId: "f2",
          frozen: state,
          seenRevision: "1:0",
          seen: { ...state, name: "again" },
        }),
      );
    }
    const stored = (id: string) =>
      comparable(raw.prepare(`SELECT * FROM "ConversationWorkspace" WHERE "conversationId" = ?`).get(id) as RawRow, id);
    expect(stored(a)).toEqual(stored(b));
    expect(stored(a).frozenId).toBe("f2");
    for (const direct of [true, false]) {
      const status = await via(direct, () => views.workspaceViewStatus({ conversationId: a }));
      expect(status).toEqual({
        workspaceId: "default",
        ownerId: null,
        revision: expect.stringMatching(/^\d+:\d+$/),
        frozenId: "f2",
        seenRevision: "1:0",
      });
      expect(await via(direct, () => views.workspaceViewStatus({ conversationId: newId("missing") }))).toBeNull();
    }
  });

  it("stores a cache baseline as the Prisma path does, reads its version alone, and refuses one for a conversation gone", async () => {
    const [a, b] = [newId("direct"), newId("prisma")];
    const data = {
      model: "m",
      system: "s1",
      hashes: Array.from({ length: 2_000 }, (_, i) => `h${i}`),
      note: 'Ünïcode \u2028 "q"',
    };
    for (const [id, direct] of [
      [a, true],
      [b, false],
    ] as const) {
      await conversations.ensureConversation({ id });
      expect(await via(direct, () => baselines.getCacheBaselineVersion({ conversationId: id }))).toBeNull();
      await via(direct, () =>
        baselines.putCacheBaseline({ conversationId: id, version: "v1", data: { ...data, hashes: [] } }),
      );
      await via(direct, () => baselines.putCacheBaseline({ conversationId: id, version: "v2", data }));
      await expect(
        via(direct, () => baselines.putCacheBaseline({ conversationId: `${id}-missing`, version: "v1", data })),
      ).rejects.toThrow();
    }
    const stored = (id: string) =>
      comparable(raw.prepare(`SELECT * FROM "CacheBaseline" WHERE "conversationId" = ?`).get(id) as RawRow, id);
    expect(stored(a)).toEqual(stored(b));
    expect(
      raw.prepare(`SELECT count(*) AS n FROM "CacheBaseline" WHERE "conversationId" LIKE '%-missing'`).get(),
    ).toEqual({ n: 0 });
    for (const direct of [true, false]) {
      for (const id of [a, b]) {
        expect(await via(direct, () => baselines.getCacheBaselineVersion({ conversationId: id }))).toBe("v2");
        expect(await via(direct, () => baselines.getCacheBaseline({ conversationId: id }))).toEqual({
          version: "v2",
          data,
        });
      }
    }
  });

  it("lists a conversation's children as the Prisma path does, none without a query when it has none", async () => {
    const [lonely, parent] = [newId("lonely"), newId("parent")];
    await conversations.ensureConversation({ id: lonely });
    await conversations.ensureConversation({ id: parent });
    const run = { agentId: "general-purpose", label: "Look <up>", startedAt: "2026-12-03T10:00:00.000Z" };
    const made = await subagents.createChild({
      id: newId("child"),
      parentId: parent,
      workspaceId: "default",
      mode: "build",
      settings: {},
      model: null,
      run,
      background: false,
      maxRunning: 4,
    });
    expect("child" in made).toBe(true);
    for (const id of [lonely, parent]) {
      expect(await via(true, () => subagents.listChildren({ parentId: id }))).toEqual(
        await via(false, () => subagents.listChildren({ parentId: id })),
      );
    }
    expect(sqliteDirect()?.hasChildren(lonely)).toBe(false);
    expect(sqliteDirect()?.hasChildren(parent)).toBe(true);
    expect((await subagents.listChildren({ parentId: parent })).map((c) => c.run.label)).toEqual(["Look <up>"]);
  });

  it("reads back what either path stored as the Prisma path reads it", async () => {
    const [a, b] = [newId("direct"), newId("prisma")];
    await via(true, () => turn(a));
    await via(false, () => turn(b));
    for (const id of [a, b]) {
      await tasks.createTask({ conversationId: id, subject: "Draft <i>it</i>", metadata: { note: "x" } });
      await tasks.createTask({ conversationId: id, subject: "Send", status: "in_progress" });
      const read = async (direct: boolean) =>
        via(direct, async () => ({
          conversation: await conversations.getConversation({ id }),
          messages: await messages.listMessages({ conversationId: id }),
          tasks: await tasks.listTasks({ conversationId: id }),
          missing: await conversations.getConversation({ id: `${id}-missing` }),
        }));
      const [directRead, prismaRead] = [await read(true), await read(false)];
      expect(directRead).toEqual(prismaRead);
      expect(directRead.messages.map((m) => m.id)).toEqual(["m1", "r1", "m2"]);
      expect(directRead.tasks.map((t) => t.subject)).toEqual(["Draft <i>it</i>", "Send"]);
      expect(directRead.conversation?.createdAt).toBe(prismaRead.conversation?.createdAt);
    }
  });

  it("refuses what the Prisma path refuses and writes nothing: a used message id, an unknown conversation", async () => {
    for (const direct of [true, false]) {
      const id = newId(direct ? "direct" : "prisma");
      await via(direct, async () => {
        await conversations.ensureConversation({ id });
        const message: ChatMessage = { id: "same", role: "user", parts: [{ type: "text", text: "one" }] };
        await messages.appendMessages({ conversationId: id, messages: [{ message }] });
        await expect(messages.appendMessages({ conversationId: id, messages: [{ message }] })).rejects.toMatchObject({
          code: "P2002",
        });
        await expect(
          messages.appendMessages({
            conversationId: `${id}-missing`,
            messages: [{ message: { ...message, id: "other" } }],
          }),
        ).rejects.toMatchObject({ code: "P2025" });
      });
      expect(storedMessages(id)).toHaveLength(1);
      expect(storedConversation(id).messageSeq).toBe(1);
    }
  });

  it("imports a conversation byte for byte as the Prisma path does", async () => {
    const body = (id: string) =>
      importSchema.parse({
        version: 1,
        conversation: {
          id,
          title: "Trip <b>plan</b>",
          settings: { injection: { timezone: "Asia/Tokyo" } },
          messages: [
            {
              id: "u1",
              role: "user",
              parts: [{ type: "text", text: "Plan it ✓" }],
              metadata: { createdAt: "2026-01-01T00:00:00Z" },
            },
            {
              id: "a1",
              role: "assistant",
              parts: [{ type: "step-start" }, { type: "text", text: "Half" }],
              metadata: { status: "incomplete", model: "m" },
            },
            { id: "a2", role: "assistant", parts: [], metadata: { status: "error", error: "HTTP 500" } },
          ],
          tasks: [
            { id: "2", subject: "Book", status: "pending", blockedBy: ["1"] },
            { id: "1", subject: "Choose", status: "completed", blocks: ["2"], owner: "agent", metadata: { x: 1 } },
          ],
          mode: "plan",
          planVersions: [
            { content: "- Choose\n- Book", author: "agent", createdAt: "2026-01-01T00:00:00Z" },
            { content: "- Choose ✓\n- Book", author: "person", createdAt: "2026-01-01T00:01:00Z" },
          ],
        },
      });
    const [a, b] = [newId("direct"), newId("prisma")];
    await via(true, () => importConversation(body(a), () => newId("unused")));
    await via(false, () => importConversation(body(b), () => newId("unused")));
    expect(storedConversation(a)).toEqual(storedConversation(b));
    expect(storedMessages(a)).toEqual(storedMessages(b));
    expect(storedTasks(a)).toEqual(storedTasks(b));
    expect(storedPlans(a)).toEqual(storedPlans(b));
    expect(storedPlans(a).map((p) => [p.version, p.author])).toEqual([
      [1, "agent"],
      [2, "person"],
    ]);
    expect([storedConversation(a).mode, storedConversation(a).planSeq]).toEqual(["plan", 2]);
    expect(storedMessages(a).map((m) => m.status)).toEqual(["complete", "incomplete", "error"]);
    expect(storedTasks(a).map((t) => t.blockedBy)).toEqual(['["1"]', "[]"]);
    // The direct statements write (true) and refuse a taken id without writing anything (false).
    const rows = (id: string) => ({
      conversation: { id, title: "t", settings: {}, taskSeq: 0, messageSeq: 1, mode: "build", planSeq: 0 },
      messages: [
        { id: "m", role: "user", position: 0, parts: [{ type: "text", text: "x" }], metadata: {}, status: "complete" },
      ],
      tasks: [],
      planVersions: [],
    });
    const c = newId("direct");
    expect(await sqliteDirect()!.importConversation(rows(c))).toBe(true);
    expect(await sqliteDirect()!.importConversation({ ...rows(c), messages: [] })).toBe(false);
    expect(storedMessages(c)).toHaveLength(1);
    // Written a slice at a time, a conversation is its own child (listed nowhere) until its last slice; a row refused
    // part-way through its messages takes the whole of it back.
    expect(storedConversation(c).parentId).toBeNull();
    const d = newId("direct");
    const twice = { ...rows(d), messages: [...rows(d).messages, { ...rows(d).messages[0]!, position: 1 }] };
    await expect(sqliteDirect()!.importConversation(twice)).rejects.toThrow(/constraint/i);
    expect(raw.prepare(`SELECT count(*) AS n FROM "Conversation" WHERE id = ?`).get(d)).toEqual({ n: 0 });
    expect(storedMessages(d)).toEqual([]);
  });

  it("reads timestamps SQLite itself wrote (CURRENT_TIMESTAMP, no zone) as UTC", async () => {
    const id = newId("legacy");
    await conversations.ensureConversation({ id });
    const writer = new Database(process.env.DATABASE_URL!.replace(/^file:/, ""));
    writer.prepare(`UPDATE "Conversation" SET "createdAt" = '2026-11-30 10:00:00' WHERE id = ?`).run(id);
    writer.close();
    const direct = await via(true, () => conversations.getConversation({ id }));
    const prisma = await via(false, () => conversations.getConversation({ id }));
    expect(direct?.createdAt).toBe("2026-11-30T10:00:00.000Z");
    expect(direct?.createdAt).toBe(prisma?.createdAt);
  });

  it("reads a workspace's MCP servers as Prisma does, in name order, JSON and booleans read back", async () => {
    const workspace = await workspaces.createWorkspace({ id: newId("mcp-ws"), name: newId("mcp-ws"), max: 1000 });
    if (workspace === "limit") throw new Error("no room for a workspace");
    expect(await via(true, () => mcpServers.listMcpServers({ workspaceId: workspace.id }))).toEqual([]);
    const add = (
      name: string,
      input: Parameters<typeof mcpServers.createMcpServer>[0] extends infer T
        ? Omit<T & object, "workspaceId" | "name" | "max">
        : never,
    ) => mcpServers.createMcpServer({ workspaceId: workspace.id, name, max: 10, ...input });
    await add("zeta", {
      url: "http://127.0.0.1:1/mcp",
      headers: { Authorization: "Bearer x ✓" },
      approval: "ask",
      enabled: false,
      timeoutSeconds: 30,
    });
    await add("alpha", { url: "http://127.0.0.1:2/mcp" });
    await mcpServers.updateMcpServer({
      workspaceId: workspace.id,
      name: "alpha",
      alwaysAllow: ["read_file", "<b>x</b>"],
    });
    const direct = await via(true, () => mcpServers.listMcpServers({ workspaceId: workspace.id }));
    const prisma = await via(false, () => mcpServers.listMcpServers({ workspaceId: workspace.id }));
    expect(direct).toEqual(prisma);
    expect(direct.map((s) => [s.name, s.enabled, s.timeoutSeconds, s.alwaysAllow, s.headers])).toEqual([
      ["alpha", true, null, ["read_file", "<b>x</b>"], {}],
      ["zeta", false, 30, [], { Authorization: "Bearer x ✓" }],
    ]);
  });

  it("fixes a conversation's MCP tool list as Prisma does, once, and reads its row back the same", async () => {
    const list = [
      {
        name: "mcp__files__read",
        server: "files",
        tool: "read",
        description: 'Reads "a" file ✓',
        inputSchema: { type: "object", properties: { b: {}, a: {} } },
      },
    ];
    const [a, b] = [newId("direct"), newId("prisma")];
    for (const id of [a, b]) await conversations.ensureConversation({ id });
    expect(await via(true, () => mcpTools.fixConversationMcpTools({ conversationId: a, data: list }))).toEqual(list);
    expect(await via(false, () => mcpTools.fixConversationMcpTools({ conversationId: b, data: list }))).toEqual(list);
    const stored = (id: string) =>
      comparable(raw.prepare(`SELECT * FROM "ConversationMcpTools" WHERE "conversationId" = ?`).get(id) as RawRow, id);
    expect(stored(a)).toEqual(stored(b));
    // A second fix keeps the first list (another reply or instance was first), on either path.
    expect(await via(true, () => mcpTools.fixConversationMcpTools({ conversationId: a, data: [] }))).toEqual(list);
    expect(await via(false, () => mcpTools.fixConversationMcpTools({ conversationId: a, data: [] }))).toEqual(list);
    await mcpTools.setConversationMcpToolsTold({ conversationId: b, toldChanges: "k<1>" });
    await mcpTools.markConversationMcpToolsStale({ conversationId: b });
    for (const id of [a, b]) {
      const direct = await via(true, () => mcpTools.getConversationMcpToolsRow({ conversationId: id }));
      expect(direct).toEqual(await via(false, () => mcpTools.getConversationMcpToolsRow({ conversationId: id })));
      expect(direct?.data).toEqual(list);
    }
    expect(await via(true, () => mcpTools.getConversationMcpToolsRow({ conversationId: b }))).toMatchObject({
      stale: true,
      toldChanges: "k<1>",
      revision: 0,
    });
    expect(await via(true, () => mcpTools.getConversationMcpToolsRow({ conversationId: newId("none") }))).toBeNull();
    // What a list left out, and whether the agent was told, are stored and read alike too.
    const leftOut = [{ server: "files", tool: "huge ✓", reason: "definition-size" }];
    const [c, d] = [newId("direct-left"), newId("prisma-left")];
    for (const id of [c, d]) await conversations.ensureConversation({ id });
    await via(true, () =>
      mcpTools.fixConversationMcpTools({ conversationId: c, data: list, leftOut, leftOutTold: true }),
    );
    await via(false, () =>
      mcpTools.fixConversationMcpTools({ conversationId: d, data: list, leftOut, leftOutTold: true }),
    );
    expect(stored(c)).toEqual(stored(d));
    for (const id of [a, c])
      expect(await via(true, () => mcpTools.getConversationMcpToolsRow({ conversationId: id }))).toEqual(
        await via(false, () => mcpTools.getConversationMcpToolsRow({ conversationId: id })),
      );
    expect(await via(true, () => mcpTools.getConversationMcpToolsRow({ conversationId: c }))).toMatchObject({
      leftOut,
      leftOutTold: true,
    });
    expect(await via(true, () => mcpTools.getConversationMcpToolsRow({ conversationId: a }))).toMatchObject({
      leftOut: [],
      leftOutTold: false,
    });
    // A conversation deleted meanwhile: the write fails on either path, as the foreign key says.
    await expect(
      via(true, () => mcpTools.fixConversationMcpTools({ conversationId: newId("gone"), data: list })),
    ).rejects.toThrow(/FOREIGN KEY/i);
  });
});
