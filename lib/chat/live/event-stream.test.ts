import { describe, expect, it } from "vitest";
import { changesOf, publishChangesOf } from "./change-events.ts";
import { type ChangeEvent, createMemoryBus, eventBus } from "./event-bus.ts";
import { eventStream } from "./event-stream.ts";

const decoder = new TextDecoder();

describe("the events stream", () => {
  it("sends each change as one data line", async () => {
    const bus = createMemoryBus();
    const reader = eventStream({ bus }).getReader();
    expect(decoder.decode((await reader.read()).value)).toBe(": connected\n\n");
    bus.publish({ type: "tasks", id: "c1" });
    expect(decoder.decode((await reader.read()).value)).toBe('data: {"type":"tasks","id":"c1"}\n\n');
    await reader.cancel();
  });

  it("drops a listener that never reads once its queue is full, instead of growing", async () => {
    const bus = createMemoryBus();
    let listeners = 0;
    const counting = {
      publish: bus.publish,
      subscribe: (listener: Parameters<typeof bus.subscribe>[0]) => {
        listeners++;
        const off = bus.subscribe(listener);
        return () => {
          listeners--;
          off();
        };
      },
    };
    const stream = eventStream({ bus: counting, queueLimit: 8 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(listeners).toBe(1);
    for (let i = 0; i < 100; i++) bus.publish({ type: "conversation", id: `c${i}` });
    expect(listeners).toBe(0);
    // What was queued is still readable, then the stream ends: the browser reconnects.
    let read = 0;
    for await (const _ of stream) read++;
    expect(read).toBeLessThanOrEqual(8);
  });

  it("sends keep-alive comments", async () => {
    const reader = eventStream({ bus: createMemoryBus(), keepAliveMs: 10 }).getReader();
    await reader.read();
    expect(decoder.decode((await reader.read()).value)).toBe(": keep-alive\n\n");
    await reader.cancel();
  });
});

describe("changes of a write", () => {
  it("names the conversation, the list, tasks or the workspace a route changed", () => {
    expect(changesOf("PATCH", "/api/conversations/a")).toEqual([
      { type: "conversation", id: "a" },
      { type: "conversations", id: "a" },
    ]);
    expect(changesOf("DELETE", "/api/conversations/a")).toHaveLength(2);
    expect(changesOf("POST", "/api/conversations/import")).toEqual([{ type: "conversations", id: "" }]);
    expect(changesOf("PATCH", "/api/conversations/a/tasks/3")).toEqual([{ type: "tasks", id: "a" }]);
    expect(changesOf("POST", "/api/conversations/a/compact")).toEqual([{ type: "conversation", id: "a" }]);
    // The queue shows above every tab's composer: any change to it is the conversation's.
    for (const [method, path] of [
      ["POST", "/api/conversations/a/queue"],
      ["PATCH", "/api/conversations/a/queue/m1"],
      ["DELETE", "/api/conversations/a/queue/m1"],
    ] as const)
      expect(changesOf(method, path)).toEqual([{ type: "conversation", id: "a" }]);
    expect(changesOf("GET", "/api/conversations/a/queue")).toEqual([]);
    expect(changesOf("POST", "/api/conversations/a/branches")).toEqual([
      { type: "conversation", id: "a" },
      { type: "conversations", id: "a" },
    ]);
    expect(changesOf("PUT", "/api/workspaces/w/knowledge/a.md")).toEqual([{ type: "workspace", id: "w" }]);
    expect(changesOf("GET", "/api/conversations/a")).toEqual([]);
    expect(changesOf("POST", "/api/chat")).toEqual([]);
    expect(changesOf("POST", "/api/conversations/a/stop")).toEqual([]);
  });

  it("publishes a workspace event under the id the route resolved, and a user's conversation events with their id", () => {
    const seen: ChangeEvent[] = [];
    const off = eventBus().subscribe((event) => seen.push(event));
    try {
      const created = new Response(null, { status: 201 });
      // A member's "default" is their own workspace, not the one whose id is "default".
      publishChangesOf(new Request("http://x/api/workspaces/default/skills", { method: "POST" }), created, {
        owner: "u1",
        workspaceId: "default-u1",
      });
      publishChangesOf(new Request("http://x/api/conversations/c1/tasks", { method: "POST" }), created, {
        owner: "u1",
        workspaceId: "c1",
      });
      publishChangesOf(new Request("http://x/api/workspaces", { method: "POST" }), created, { owner: "u1" });
      publishChangesOf(
        new Request("http://x/api/workspaces/w1", { method: "PATCH" }),
        new Response(null, { status: 403 }),
        { workspaceId: "w1" },
      );
      expect(seen).toEqual([
        { type: "workspace", id: "default-u1" },
        { type: "tasks", id: "c1", owner: "u1" },
        { type: "workspace", id: "" },
      ]);
    } finally {
      off();
    }
  });
});
