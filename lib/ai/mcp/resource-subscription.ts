// One MCP resource kept subscribed (issue 48's mcp-resource state sources): a connection of its own that sends
// `resources/subscribe { uri }` and hears `notifications/resources/updated` for that uri. It uses the protocol's own
// client (@modelcontextprotocol/sdk): the AI SDK's client (connect.ts) has no resources/subscribe and hands a
// notification over HTTP to nobody. The connection goes the way connect.ts's do: Streamable HTTP, then SSE, through
// mcpFetch (the address rules, no redirect followed, every byte counted, so a flood is bounded like any answer), or
// the operator's program over BoundedStdioTransport (what it prints bounded, no inherited secrets).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { privateAddressesAllowed } from "../outbound-address.ts";
import { describeMcpError, MCP_CONNECT_TIMEOUT_MS } from "./connect.ts";
import { mcpFetch } from "./mcp-fetch.ts";
import type { McpServerConfig } from "./server-config.ts";
import { BoundedStdioTransport } from "./stdio-transport.ts";

/** How long unsubscribing and ending the session may take when a subscription is closed. */
const CLOSE_TIMEOUT_MS = 2_000;

export type ResourceSubscription = {
  /** The resource's text contents, read over the subscription's connection. */
  readTexts(signal: AbortSignal, timeoutMs: number): Promise<string[]>;
  /** Unsubscribes (when the connection still stands) and closes; never throws, never waits past CLOSE_TIMEOUT_MS. */
  close(): Promise<void>;
};

export type SubscriptionEvents = {
  /** The server said the resource changed. */
  onUpdated(): void;
  /** The connection failed or closed without close() (called once; the subscription is dead). */
  onLost(reason: string): void;
};

/** BoundedStdioTransport speaks the AI SDK's transport interface, which has the protocol client's shape. */
function stdioTransport(server: McpServerConfig & { transport: { type: "stdio" } }): Transport {
  const { command, args, env, cwd } = server.transport;
  const inner = new BoundedStdioTransport({ command, args, env, cwd, stderr: "ignore" });
  const outer: Transport = {
    start: () => inner.start(),
    send: (message) => inner.send(message as Parameters<BoundedStdioTransport["send"]>[0]),
    close: () => inner.close(),
  };
  inner.onmessage = (message) => outer.onmessage?.(message as JSONRPCMessage);
  inner.onerror = (error) => outer.onerror?.(error);
  inner.onclose = () => outer.onclose?.();
  return outer;
}

function httpTransport(server: McpServerConfig, url: string, headers: Record<string, string>, kind: "http" | "sse") {
  const options = {
    // One fetch per transport: an SSE stream's answers belong to the requests sent over the same connection.
    fetch: mcpFetch({ allowPrivate: server.source === "operator" || privateAddressesAllowed() }),
    requestInit: { headers, redirect: "error" as const },
    // Redirects are left to the fetch, which follows none (the SDK would follow one within the origin itself).
    redirectPolicy: "follow" as const,
  };
  return kind === "http"
    ? new StreamableHTTPClientTransport(new URL(url), options)
    : new SSEClientTransport(new URL(url), options);
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref())]);

async function connected(server: McpServerConfig, timeoutMs: number, prepare: (client: Client) => void) {
  const attempt = async (transport: Transport) => {
    const client = new Client({ name: "hintline", version: "1.0.0" }, { capabilities: {} });
    prepare(client);
    try {
      await client.connect(transport, { timeout: timeoutMs });
      return { client, transport };
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  };
  const spec = server.transport;
  if (spec.type === "stdio") return attempt(stdioTransport({ ...server, transport: spec }));
  try {
    return await attempt(httpTransport(server, spec.url, spec.headers, "http"));
  } catch (first) {
    try {
      return await attempt(httpTransport(server, spec.url, spec.headers, "sse"));
    } catch {
      throw first;
    }
  }
}

/**
 * Connects to `server` and subscribes to `uri`; undefined (connection closed) when the server does not advertise
 * `resources.subscribe`. Throws when it cannot be reached or refuses the subscription.
 */
export async function subscribeMcpResource(
  server: McpServerConfig,
  uri: string,
  events: SubscriptionEvents,
  timeoutMs = MCP_CONNECT_TIMEOUT_MS,
): Promise<ResourceSubscription | undefined> {
  let armed = false;
  let closing = false;
  const lose = (reason: string) => {
    if (!armed || closing) return;
    armed = false;
    events.onLost(reason);
  };
  const { client, transport } = await connected(server, timeoutMs, (client) => {
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      if (armed && notification.params.uri === uri) events.onUpdated();
    });
    client.onerror = (error) => lose(describeMcpError(error));
    client.onclose = () => lose("the connection closed");
  });
  const close = async () => {
    const standing = armed;
    closing = true;
    armed = false;
    if (standing) {
      await within(
        client.unsubscribeResource({ uri }, { timeout: CLOSE_TIMEOUT_MS }).catch(() => undefined),
        CLOSE_TIMEOUT_MS,
      );
      if (transport instanceof StreamableHTTPClientTransport)
        await within(
          transport.terminateSession().catch(() => undefined),
          CLOSE_TIMEOUT_MS,
        );
    }
    await client.close().catch(() => undefined);
  };
  if (client.getServerCapabilities()?.resources?.subscribe !== true) {
    closing = true;
    await client.close().catch(() => undefined);
    return undefined;
  }
  try {
    await client.subscribeResource({ uri }, { timeout: timeoutMs });
  } catch (error) {
    closing = true;
    await client.close().catch(() => undefined);
    throw error;
  }
  armed = true;
  return {
    close,
    async readTexts(signal, readTimeoutMs) {
      const result = await client.readResource({ uri }, { signal, timeout: readTimeoutMs });
      return result.contents.flatMap((c) => ("text" in c && typeof c.text === "string" ? [c.text] : []));
    },
  };
}
