// GET /api/workspaces/:id carries the token figures the settings view shows against the budget: real tokenizer
// counts of the instructions, the memory and the knowledge index (KNOWLEDGE.md plus the list of the other files).
import { countTokens } from "@/lib/agent/token-count";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { getJson } from "../support/chat-client.ts";
import { databaseKinds, expectApiError, jsonRequest } from "./helpers.ts";

type Tokens = { budget: number; window: number; instructions: number; memory: number; knowledgeIndex: number };
type WorkspaceWithTokens = { id: string; name: string; instructions: string; tokens: Tokens };

describe.each(databaseKinds("workspace_tokens"))("$name: workspace token figures", ({ databaseUrl }) => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer({ databaseUrl: await databaseUrl(), env: { HINTLINE_WORKSPACE_BUDGET: "1234" } });
  });
  afterAll(async () => {
    await server?.stop();
  });
  const api = (path: string) => `${server.url}/api${path}`;

  it("counts instructions, memory and the knowledge index against the configured budget", async () => {
    const instructions = "Answer in French. Cite the knowledge files by path.";
    const { body: ws } = await getJson<WorkspaceWithTokens>(
      api("/workspaces"),
      jsonRequest("POST", { name: "Tokens", instructions }),
    );
    const empty = await getJson<WorkspaceWithTokens>(api(`/workspaces/${ws.id}`));
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ id: ws.id, name: "Tokens", instructions });
    // The demo model's window is 8,192 tokens: a quarter of it (2,048) is more than the configured 1,234.
    expect(empty.body.tokens).toEqual({
      budget: 1234,
      window: 8192,
      instructions: countTokens(instructions),
      memory: 0,
      knowledgeIndex: 0,
    });

    for (const text of ["Prefers metric units", "Lives in Lyon"]) {
      expect((await fetch(api(`/workspaces/${ws.id}/memory`), jsonRequest("POST", { text }))).status).toBe(201);
    }
    const index = "# Knowledge\nThe API notes are in notes/api.md.";
    for (const [path, body] of [
      ["KNOWLEDGE.md", index],
      ["notes/api.md", "# API\nThe rate limit is 10 per second.\n"],
    ] as const) {
      const put = await fetch(api(`/workspaces/${ws.id}/knowledge/${path}`), {
        method: "PUT",
        headers: { "content-type": "text/markdown" },
        body,
      });
      expect(put.status).toBe(201);
    }
    const { body } = await getJson<WorkspaceWithTokens>(api(`/workspaces/${ws.id}`));
    const apiBytes = Buffer.byteLength("# API\nThe rate limit is 10 per second.\n");
    expect(body.tokens).toEqual({
      budget: 1234,
      window: 8192,
      instructions: countTokens(instructions),
      memory: countTokens("- Prefers metric units\n- Lives in Lyon"),
      knowledgeIndex: countTokens(index) + countTokens(`- notes/api.md (${apiBytes} bytes)`),
    });
    // The list stays as it was: figures belong to one workspace's own view.
    const list = await getJson<Array<Record<string, unknown>>>(api("/workspaces"));
    expect(list.body.every((w) => !("tokens" in w))).toBe(true);
  });

  it("an unknown workspace is a 404 naming it", async () => {
    const message = await expectApiError(await fetch(api("/workspaces/ws_missing")), 404, "not_found");
    expect(message).toContain("ws_missing");
  });
});
