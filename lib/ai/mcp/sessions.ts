// The MCP connections of one reply: opened on first use (or when the tool list is fixed), shared by the reply's calls,
// forgotten after a failure (the next call connects again: a server that died comes back), closed when the reply ends.
import type { MCPClient } from "@ai-sdk/mcp";
import { connectMcp } from "./connect.ts";
import type { McpServerConfig } from "./server-config.ts";
import { logFailure } from "../../log/logger.ts";

export type McpSessions = {
  client(server: McpServerConfig): Promise<MCPClient>;
  forget(name: string): void;
  close(): Promise<void>;
};

export function createMcpSessions(
  connect: (server: McpServerConfig) => Promise<MCPClient> = (s) => connectMcp(s),
): McpSessions {
  const clients = new Map<string, Promise<MCPClient>>();
  // A client that never connected has nothing to close (its failure was reported where it was used).
  const closeOne = (name: string, client: Promise<MCPClient>) =>
    client.then(
      (c) => c.close().catch(logFailure("closing an MCP connection failed", { server: name })),
      () => undefined,
    );
  return {
    client(server) {
      let client = clients.get(server.name);
      if (!client) {
        client = connect(server);
        clients.set(server.name, client);
        client.catch(() => {
          if (clients.get(server.name) === client) clients.delete(server.name);
        });
      }
      return client;
    },
    forget(name) {
      const client = clients.get(name);
      clients.delete(name);
      if (client) void closeOne(name, client);
    },
    async close() {
      const all = [...clients.entries()];
      clients.clear();
      await Promise.all(all.map(([name, client]) => closeOne(name, client)));
    },
  };
}
