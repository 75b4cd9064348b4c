// The subscriptions' lifecycle with an injected clock, timers and connector (the connection itself is exercised
// against a real MCP server in tests/api/state-sources.test.ts): one connection per source, a push or an end marks the
// reading due, a loss is tried again after a doubling delay, and unused, edited or switched-off sources are let go.
import { describe, expect, it } from "vitest";
import type { ResourceSubscription, SubscriptionEvents } from "../ai/mcp/resource-subscription.ts";
import type { McpServerConfig } from "../ai/mcp/server-config.ts";
import { SUBSCRIPTION_IDLE_MS } from "../agent/state-subscription-rules.ts";
import { StateSubscriptions } from "./state-subscriptions.ts";

const server = (url = "https://mcp.example/mcp", enabled = true): McpServerConfig => ({
  name: "push",
  source: "workspace",
  transport: { type: "http", url, headers: {} },
  approval: "ask" as McpServerConfig["approval"],
  enabled,
  timeoutSeconds: 30,
  alwaysAllow: [],
});
const source = (version = "v1", name = "status") => ({ workspaceId: "w1", name, version, uri: "push://status" });

function harness(offered = true, max?: number) {
  let clock = 0;
  const timers: Array<{ at: number; run: () => void; cancelled: boolean }> = [];
  const connections: Array<{ events: SubscriptionEvents; closed: boolean }> = [];
  let failNext = 0;
  const subscriptions = new StateSubscriptions({
    nowMs: () => clock,
    schedule: (run, ms) => {
      const t = { at: clock + ms, run, cancelled: false };
      timers.push(t);
      return () => {
        t.cancelled = true;
      };
    },
    subscribe: async (_server, _uri, events) => {
      if (failNext > 0) {
        failNext--;
        throw new Error("unreachable");
      }
      if (!offered) return undefined;
      const connection = { events, closed: false };
      connections.push(connection);
      const live: ResourceSubscription = {
        readTexts: async () => ["{}"],
        close: async () => {
          connection.closed = true;
        },
      };
      return live;
    },
    ...(max ? { max } : {}),
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** Moves the clock to `ms` and runs the timers due by then. */
  const advance = async (ms: number) => {
    clock = ms;
    for (const t of timers.filter((t) => !t.cancelled && t.at <= ms)) {
      t.cancelled = true;
      t.run();
    }
    await settle();
  };
  return { subscriptions, connections, settle, advance, failNext: (n: number) => (failNext = n), timers };
}

describe("state subscriptions", () => {
  it("keeps one connection per source; a push marks the reading due; a flood is one flag", async () => {
    const h = harness();
    let due = 0;
    for (let i = 0; i < 3; i++) h.subscriptions.keep(source(), server(), () => due++);
    await h.settle();
    expect(h.connections).toHaveLength(1);
    expect(h.subscriptions.live(source(), server())).toBeDefined();
    for (let i = 0; i < 1_000; i++) h.connections[0]!.events.onUpdated();
    expect(due).toBe(1_000);
  });

  it("a lost subscription marks the reading due and is tried again after 2 s, then 4 s, while in use", async () => {
    const h = harness();
    let due = 0;
    h.subscriptions.keep(source(), server(), () => due++);
    await h.settle();
    h.connections[0]!.events.onLost("gone");
    expect(due).toBe(1);
    expect(h.subscriptions.live(source(), server())).toBeUndefined();
    expect(h.connections[0]!.closed).toBe(true);
    h.failNext(1);
    await h.advance(1_999);
    expect(h.connections).toHaveLength(1);
    await h.advance(2_000); // the first try fails: the next waits 4 s
    expect(h.connections).toHaveLength(1);
    await h.advance(5_999);
    expect(h.connections).toHaveLength(1);
    await h.advance(6_000);
    expect(h.connections).toHaveLength(2);
    // Subscribed again: what was missed is read at the next step.
    expect(due).toBe(2);
    expect(h.subscriptions.counts()).toEqual({ held: 1, open: 1 });
  });

  it("lets go of unused, edited, switched-off and removed sources, and of a moved server's", async () => {
    const h = harness();
    let due = 0;
    h.subscriptions.keep(source(), server(), () => due++);
    h.subscriptions.keep(source("v1", "other"), server(), () => due++);
    await h.settle();
    // Edited (another version) or its server moved: the old connection closes.
    expect(h.subscriptions.live(source("v2"), server())).toBeUndefined();
    expect(h.connections[0]!.closed).toBe(true);
    expect(h.subscriptions.live(source("v1", "other"), server("https://elsewhere.example/mcp"))).toBeUndefined();
    expect(h.connections[1]!.closed).toBe(true);
    expect(h.subscriptions.counts().held).toBe(0);

    h.subscriptions.keep(source(), server(), () => due++);
    h.subscriptions.keep(source("v1", "other"), server(), () => due++);
    await h.settle();
    // A step reads only "status": "other" was switched off or removed.
    h.subscriptions.used("w1", [source()]);
    expect(h.connections[3]!.closed).toBe(true);
    expect(h.connections[2]!.closed).toBe(false);
    // Unused for SUBSCRIPTION_IDLE_MS: the sweep closes it.
    await h.advance(SUBSCRIPTION_IDLE_MS - 60_000);
    expect(h.connections[2]!.closed).toBe(false);
    await h.advance(SUBSCRIPTION_IDLE_MS);
    expect(h.connections[2]!.closed).toBe(true);
    expect(h.subscriptions.counts().held).toBe(0);

    h.subscriptions.keep(source(), server(), () => due++);
    await h.settle();
    await h.subscriptions.endServer("w1", "push");
    expect(h.connections[4]!.closed).toBe(true);
    h.subscriptions.keep(source(), server("https://mcp.example/mcp", false), () => due++);
    await h.settle();
    expect(h.connections).toHaveLength(5);
  });

  it("holds at most `max` subscriptions (more sources are polled) and none on a server that does not offer it", async () => {
    const h = harness(true, 2);
    for (const name of ["a", "b", "c"]) h.subscriptions.keep(source("v1", name), server(), () => undefined);
    await h.settle();
    expect(h.connections).toHaveLength(2);
    await h.subscriptions.endAll();
    expect(h.connections.every((c) => c.closed)).toBe(true);
    const none = harness(false);
    none.subscriptions.keep(source(), server(), () => undefined);
    await none.settle();
    expect(none.subscriptions.counts().held).toBe(0);
  });
});
