import { describe, expect, it } from "vitest";
import { parseOperatorConfig } from "./operator-config.ts";

describe("the operator's MCP config", () => {
  it("reads stdio and http servers in the mcpServers shape, with defaults", () => {
    const { servers, skipped } = parseOperatorConfig(
      JSON.stringify({
        mcpServers: {
          files: { command: "node", args: ["fs.js", "/tmp"], env: { TOKEN: "t" }, approval: "ask" },
          remote: {
            url: "https://mcp.example.com/mcp",
            headers: { Authorization: "Bearer x" },
            timeoutSeconds: 5,
            disabled: true,
          },
        },
      }),
      "/base",
    );
    expect(skipped).toEqual([]);
    expect(servers[0]).toMatchObject({
      name: "files",
      source: "operator",
      approval: "ask",
      enabled: true,
      timeoutSeconds: 60,
      transport: { type: "stdio", command: "node", args: ["fs.js", "/tmp"], env: { TOKEN: "t" } },
    });
    expect(servers[1]).toMatchObject({
      name: "remote",
      enabled: false,
      timeoutSeconds: 5,
      approval: "read-only-auto",
      transport: { type: "http", url: "https://mcp.example.com/mcp" },
    });
  });

  it("skips entries that do not fit, naming why", () => {
    const { servers, skipped } = parseOperatorConfig(
      JSON.stringify({
        mcpServers: {
          "Bad Name": { command: "x" },
          noway: {},
          args: { command: "x", args: "y" },
          ftp: { url: "ftp://x" },
          slow: { command: "x", timeoutSeconds: 0 },
        },
      }),
    );
    expect(servers).toEqual([]);
    expect(skipped.map((s) => s.name)).toEqual(["Bad Name", "noway", "args", "ftp", "slow"]);
    expect(parseOperatorConfig("{").skipped[0]?.reason).toMatch(/not valid JSON/);
    expect(parseOperatorConfig("{}").skipped[0]?.reason).toMatch(/mcpServers/);
  });
});
