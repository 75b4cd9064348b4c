// GET /api/events (issue #17): every write reaches the open tabs as a change event `{ type, id }`.
import { describe, expect, it } from "vitest";
import { providerServerForFile } from "../support/app-server.ts";
import { chat, listenToEvents as listen } from "../support/chat-client.ts";
import { jsonRequest } from "./helpers.ts";

const env = providerServerForFile();

describe("events: GET /api/events", () => {
  it("tells a listener about messages, the list, tasks and workspaces as they change", async () => {
    const listener = listen(env.server.url);
    try {
      expect(await listener.opened).toMatch(/^text\/event-stream/);
      const has = (type: string, id: string) =>
        [(e: { type: string; id: string }) => e.type === type && e.id === id, `a ${type} event for ${id}`] as const;
      const waitFor = ([match, what]: ReturnType<typeof has>) => listener.waitFor(match, what);

      env.fake.enqueue({ text: "hello there" });
      await chat(env.server.url, { conversationId: "evented", text: "hello" });
      await waitFor(has("conversation", "evented"));
      await waitFor(has("conversations", "evented"));

      listener.events.length = 0;
      expect(
        (await fetch(`${env.server.url}/api/conversations/evented`, jsonRequest("PATCH", { title: "Renamed" }))).status,
      ).toBe(200);
      await waitFor(has("conversations", "evented"));

      expect(
        (await fetch(`${env.server.url}/api/conversations/evented/tasks`, jsonRequest("POST", { subject: "write" })))
          .status,
      ).toBe(201);
      await waitFor(has("tasks", "evented"));

      const workspace = await fetch(
        `${env.server.url}/api/workspaces/default`,
        jsonRequest("PATCH", { instructions: "Be brief." }),
      );
      expect(workspace.status).toBe(200);
      await waitFor(has("workspace", "default"));

      // A rejected write changes nothing and tells nobody.
      listener.events.length = 0;
      expect(
        (await fetch(`${env.server.url}/api/conversations/evented/tasks`, jsonRequest("POST", { subject: "" }))).status,
      ).toBe(400);
      expect((await fetch(`${env.server.url}/api/conversations/evented`, { method: "DELETE" })).status).toBe(204);
      await waitFor(has("conversations", "evented"));
      expect(listener.events.filter((e) => e.type === "tasks")).toEqual([]);
    } finally {
      listener.close();
    }
  });

  it("tells a listener when the agent changes the task list mid-reply", async () => {
    const listener = listen(env.server.url);
    try {
      await listener.opened;
      env.fake.enqueue(
        { kind: "tools", calls: [{ name: "TaskCreate", arguments: { subject: "agent task", description: "d" } }] },
        { text: "ok" },
      );
      await chat(env.server.url, { conversationId: "agent-tasks", text: "add a task" });
      await listener.waitFor((e) => e.type === "tasks" && e.id === "agent-tasks", "a tasks event for agent-tasks");
    } finally {
      listener.close();
    }
  });
});
