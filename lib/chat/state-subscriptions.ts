// Pushed updates for mcp-resource state sources (issue 48). Once a polling read saw that a source's server advertises
// `resources.subscribe`, the source gets one connection of its own (lib/ai/mcp/resource-subscription.ts), kept while
// the source is enabled, unchanged and read by reasoning steps: its `notifications/resources/updated` marks the
// source's reading due (state-reader.ts reads it at the next step, over this connection). The connection is closed
// when the source is switched off, edited or removed, its server edited, switched off or removed, no step read it for
// SUBSCRIPTION_IDLE_MS, or the process shuts down. A lost one marks the reading due (what was missed is read at the
// next step; until then the source is polled as before) and is tried again after a doubling delay.
import {
  failuresAfterLoss,
  MAX_SUBSCRIPTIONS,
  resubscribeDelayMs,
  SUBSCRIPTION_IDLE_MS,
  subscriptionIdle,
} from "../agent/state-subscription-rules.ts";
import type { ResourceSubscription, SubscriptionEvents } from "../ai/mcp/resource-subscription.ts";
import type { McpServerConfig } from "../ai/mcp/server-config.ts";
import { log } from "../log/logger.ts";

/** What a subscription needs of a state source. */
export type SubscribedSource = { workspaceId: string; name: string; version: string; uri?: string };

type Subscription = {
  key: string;
  source: SubscribedSource;
  server: McpServerConfig;
  serverKey: string;
  /** Marks the source's reading due. */
  onDue: () => void;
  live?: ResourceSubscription;
  openedAt: number;
  failures: number;
  lastUsedAt: number;
  cancelRetry?: () => void;
  ended: boolean;
};

export type StateSubscriptionsOptions = {
  subscribe?: (
    server: McpServerConfig,
    uri: string,
    events: SubscriptionEvents,
  ) => Promise<ResourceSubscription | undefined>;
  nowMs?: () => number;
  /** Runs `run` after `ms`; answers a function that cancels it. */
  schedule?: (run: () => void, ms: number) => () => void;
  max?: number;
};

const keyOf = (workspaceId: string, name: string) => `${workspaceId}\u0000${name}`;
/** What identifies a server's connection: a server edited (moved, new headers, switched off) is another one. */
const serverKeyOf = (server: McpServerConfig) => JSON.stringify([server.source, server.enabled, server.transport]);
/** The protocol's SDK loads with the first subscription, not with every step's code (about 0.3 s and 15 MB). */
const subscribeMcpResource = async (server: McpServerConfig, uri: string, events: SubscriptionEvents) =>
  (await import("../ai/mcp/resource-subscription.ts")).subscribeMcpResource(server, uri, events);
const SWEEP_EVERY_MS = SUBSCRIPTION_IDLE_MS / 15;
const timer = (run: () => void, ms: number) => {
  const handle = setTimeout(run, ms);
  handle.unref();
  return () => clearTimeout(handle);
};

export class StateSubscriptions {
  private readonly subscriptions = new Map<string, Subscription>();
  private cancelSweep: (() => void) | undefined;
  private readonly subscribe: NonNullable<StateSubscriptionsOptions["subscribe"]>;
  private readonly nowMs: () => number;
  private readonly schedule: NonNullable<StateSubscriptionsOptions["schedule"]>;
  private readonly max: number;

  constructor({
    subscribe = (server, uri, events) => subscribeMcpResource(server, uri, events),
    nowMs = Date.now,
    schedule = timer,
    max = MAX_SUBSCRIPTIONS,
  }: StateSubscriptionsOptions = {}) {
    this.subscribe = subscribe;
    this.nowMs = nowMs;
    this.schedule = schedule;
    this.max = max;
  }

  /** Keeps `source` subscribed on `server` (whose initialize result advertised resources.subscribe), if room is left. */
  keep(source: SubscribedSource, server: McpServerConfig, onDue: () => void): void {
    const existing = this.current(source, server);
    if (existing) {
      existing.lastUsedAt = this.nowMs();
      return;
    }
    if (this.subscriptions.size >= this.max || !server.enabled) return;
    const key = keyOf(source.workspaceId, source.name);
    const now = this.nowMs();
    const sub: Subscription = {
      key,
      source: { ...source },
      server,
      serverKey: serverKeyOf(server),
      onDue,
      openedAt: now,
      failures: 0,
      lastUsedAt: now,
      ended: false,
    };
    this.subscriptions.set(key, sub);
    this.cancelSweep ??= this.schedule(() => this.sweepAgain(), SWEEP_EVERY_MS);
    this.open(sub);
  }

  /** The open connection of `source` on `server`, to read over (undefined while none stands). */
  live(source: SubscribedSource, server: McpServerConfig): ResourceSubscription | undefined {
    return this.current(source, server)?.live;
  }

  /** A read over the connection failed: it is closed and tried again later, like a lost one. */
  failed(source: SubscribedSource): void {
    const sub = this.subscriptions.get(keyOf(source.workspaceId, source.name));
    if (!sub?.live) return;
    const live = sub.live;
    sub.live = undefined;
    void live.close();
    this.retryLater(sub, failuresAfterLoss(sub.failures, this.nowMs() - sub.openedAt));
  }

  /**
   * A reasoning step of the workspace reads `enabled`: their subscriptions are in use; any other of the workspace's
   * (a source switched off, removed or edited, maybe on another instance) is ended.
   */
  used(workspaceId: string, enabled: SubscribedSource[]): void {
    const versions = new Map(enabled.map((s) => [s.name, s.version]));
    for (const sub of [...this.subscriptions.values()]) {
      if (sub.source.workspaceId !== workspaceId) continue;
      if (versions.get(sub.source.name) === sub.source.version) sub.lastUsedAt = this.nowMs();
      else void this.end(sub);
    }
  }

  /** Ends the subscription of one source (switched off, edited or removed). */
  endSource(workspaceId: string, name: string): Promise<void> {
    const sub = this.subscriptions.get(keyOf(workspaceId, name));
    return sub ? this.end(sub) : Promise.resolve();
  }

  /** Ends every subscription on one of a workspace's servers (edited, switched off or removed). */
  async endServer(workspaceId: string, server: string): Promise<void> {
    const ending = [...this.subscriptions.values()].filter(
      (sub) => sub.source.workspaceId === workspaceId && sub.server.name === server,
    );
    await Promise.all(ending.map((sub) => this.end(sub)));
  }

  /** Ends them all (shutdown). */
  async endAll(): Promise<void> {
    await Promise.all([...this.subscriptions.values()].map((sub) => this.end(sub)));
  }

  /** Ends those no step used for SUBSCRIPTION_IDLE_MS. */
  sweep(): void {
    const now = this.nowMs();
    for (const sub of [...this.subscriptions.values()]) if (subscriptionIdle(sub.lastUsedAt, now)) void this.end(sub);
  }

  /** Subscriptions held (open, being opened or waiting to be tried again), and those open now. */
  counts(): { held: number; open: number } {
    const all = [...this.subscriptions.values()];
    return { held: all.length, open: all.filter((sub) => sub.live).length };
  }

  private sweepAgain(): void {
    this.sweep();
    this.cancelSweep = this.subscriptions.size ? this.schedule(() => this.sweepAgain(), SWEEP_EVERY_MS) : undefined;
  }

  /** The subscription of `source` on `server` as it is now; one of an older version or server is ended. */
  private current(source: SubscribedSource, server: McpServerConfig): Subscription | undefined {
    const sub = this.subscriptions.get(keyOf(source.workspaceId, source.name));
    if (!sub) return undefined;
    const same =
      sub.source.version === source.version && sub.source.uri === source.uri && sub.serverKey === serverKeyOf(server);
    if (same) return sub;
    void this.end(sub);
    return undefined;
  }

  /** Closes it; the source's reading is due (what the server would have pushed from now on is read at the next step). */
  private end(sub: Subscription): Promise<void> {
    if (!sub.ended) sub.onDue();
    sub.ended = true;
    sub.cancelRetry?.();
    if (this.subscriptions.get(sub.key) === sub) this.subscriptions.delete(sub.key);
    if (!this.subscriptions.size) {
      this.cancelSweep?.();
      this.cancelSweep = undefined;
    }
    const live = sub.live;
    sub.live = undefined;
    return live ? live.close() : Promise.resolve();
  }

  private retryLater(sub: Subscription, failures: number): void {
    if (sub.ended) return;
    sub.failures = failures;
    sub.cancelRetry = this.schedule(() => {
      sub.cancelRetry = undefined;
      if (sub.ended) return;
      if (subscriptionIdle(sub.lastUsedAt, this.nowMs())) void this.end(sub);
      else this.open(sub);
    }, resubscribeDelayMs(failures));
  }

  private lost(sub: Subscription, reason: string): void {
    if (sub.ended) return;
    log().warn({ source: sub.source.name, server: sub.server.name, reason }, "a state source's subscription was lost");
    const lived = this.nowMs() - sub.openedAt;
    const live = sub.live;
    sub.live = undefined;
    void live?.close();
    sub.onDue();
    this.retryLater(sub, failuresAfterLoss(sub.failures, lived));
  }

  private open(sub: Subscription): void {
    const events: SubscriptionEvents = {
      onUpdated: () => {
        if (!sub.ended) sub.onDue();
      },
      onLost: (reason) => this.lost(sub, reason),
    };
    this.subscribe(sub.server, sub.source.uri ?? "", events).then(
      (live) => {
        if (sub.ended) return void live?.close();
        // Not offered after all (the server changed its mind): the source is polled.
        if (!live) return void this.end(sub);
        sub.live = live;
        sub.openedAt = this.nowMs();
        // Subscribed again after a loss: what changed meanwhile is read at the next step.
        if (sub.failures) sub.onDue();
      },
      (error: unknown) => {
        if (sub.ended) return;
        log().warn(
          { source: sub.source.name, server: sub.server.name, err: error },
          "subscribing to a state source failed",
        );
        this.retryLater(sub, sub.failures + 1);
      },
    );
  }
}

// One per process, whichever route bundle loads this module (the shutdown path closes the same connections).
const holder = globalThis as unknown as { __hintlineStateSubscriptions?: StateSubscriptions };

export function stateSubscriptions(): StateSubscriptions {
  holder.__hintlineStateSubscriptions ??= new StateSubscriptions();
  return holder.__hintlineStateSubscriptions;
}
