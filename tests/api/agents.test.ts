// The agent definition routes (`/api/workspaces/:id/agents`), against a real `next start` on SQLite and on PostgreSQL
// (when TEST_POSTGRES_URL is set): default's definitions are visible everywhere, a workspace's own wins by id, the
// built-in general-purpose exists unless one is defined, and bad input gets a 4xx naming the field and stores nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { getJson } from "../support/chat-client.ts";
import { countRows, databaseKinds, expectApiError, jsonRequest } from "./helpers.ts";

type Agent = {
  id: string;
  description: string;
  instructions: string;
  tools?: string[];
  model?: string;
  origin: string;
};

const kinds = databaseKinds("agents");

describe.each(kinds)("$name: agent definitions", ({ databaseUrl }) => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer({ databaseUrl: await databaseUrl() });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const api = (path: string) => `${server.url}/api${path}`;
  const newWorkspace = async (name: string): Promise<string> => {
    const { status, body } = await getJson<{ id: string }>(api("/workspaces"), jsonRequest("POST", { name }));
    expect(status).toBe(201);
    return body.id;
  };
  const reviewer = {
    id: "code-reviewer",
    description: "Reviews a diff for bugs.",
    instructions: "Read the diff; list the bugs.",
  };

  it("lists the built-in general-purpose agent in a workspace that defines none", async () => {
    const { status, body } = await getJson<Agent[]>(api("/workspaces/default/agents"));
    expect(status).toBe(200);
    expect(body).toEqual([
      expect.objectContaining({ id: "general-purpose", origin: "built-in", description: expect.stringMatching(/\S/) }),
    ]);
    expect((await getJson<Agent>(api("/workspaces/default/agents/general-purpose"))).body).toMatchObject({
      id: "general-purpose",
      origin: "built-in",
    });
  });

  it("creates, reads, edits and deletes a workspace's own agent", async () => {
    const ws = await newWorkspace("Agents CRUD");
    const created = await getJson<Agent>(
      api(`/workspaces/${ws}/agents`),
      jsonRequest("POST", { ...reviewer, tools: ["KnowledgeRead", "TaskCreate"], model: "hintline-demo" }),
    );
    expect(created).toMatchObject({
      status: 201,
      body: { ...reviewer, tools: ["KnowledgeRead", "TaskCreate"], model: "hintline-demo", origin: "workspace" },
    });
    expect((await getJson<Agent[]>(api(`/workspaces/${ws}/agents`))).body.map((a) => [a.id, a.origin])).toEqual([
      ["code-reviewer", "workspace"],
      ["general-purpose", "built-in"],
    ]);
    const patched = await getJson<Agent>(
      api(`/workspaces/${ws}/agents/code-reviewer`),
      jsonRequest("PATCH", { description: "Reviews diffs.", tools: null, model: null }),
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      id: "code-reviewer",
      description: "Reviews diffs.",
      instructions: reviewer.instructions,
      origin: "workspace",
    });
    expect((await getJson<Agent>(api(`/workspaces/${ws}/agents/code-reviewer`))).body).toEqual(patched.body);
    expect((await fetch(api(`/workspaces/${ws}/agents/code-reviewer`), { method: "DELETE" })).status).toBe(204);
    await expectApiError(await fetch(api(`/workspaces/${ws}/agents/code-reviewer`)), 404, "not_found");
    expect(await countRows(server.databaseUrl, "AgentDefinition", "workspaceId", ws)).toBe(0);
  });

  it("shows default's agents in every workspace; a workspace's own wins by id, and one may replace general-purpose", async () => {
    const ws = await newWorkspace("Agents precedence");
    expect(
      (
        await fetch(
          api("/workspaces/default/agents"),
          jsonRequest("POST", { ...reviewer, description: "Default's reviewer." }),
        )
      ).status,
    ).toBe(201);
    const seen = (await getJson<Agent[]>(api(`/workspaces/${ws}/agents`))).body;
    expect(seen.map((a) => [a.id, a.origin, a.description.slice(0, 18)])).toEqual([
      ["code-reviewer", "default", "Default's reviewer"],
      ["general-purpose", "built-in", expect.any(String)],
    ]);
    // Not this workspace's own: it cannot be edited or deleted here, and the error says where it comes from.
    expect(
      await expectApiError(
        await fetch(api(`/workspaces/${ws}/agents/code-reviewer`), jsonRequest("PATCH", { description: "x" })),
        404,
        "not_found",
      ),
    ).toMatch(/comes from the default workspace/);
    expect(
      await expectApiError(
        await fetch(api(`/workspaces/${ws}/agents/general-purpose`), { method: "DELETE" }),
        404,
        "not_found",
      ),
    ).toMatch(/built in/);
    expect(
      (await fetch(api(`/workspaces/${ws}/agents`), jsonRequest("POST", { ...reviewer, description: "Own reviewer." })))
        .status,
    ).toBe(201);
    expect(
      (
        await fetch(
          api(`/workspaces/${ws}/agents`),
          jsonRequest("POST", { id: "general-purpose", description: "Own helper.", instructions: "Help." }),
        )
      ).status,
    ).toBe(201);
    const own = (await getJson<Agent[]>(api(`/workspaces/${ws}/agents`))).body;
    expect(own.map((a) => [a.id, a.origin, a.description])).toEqual([
      ["code-reviewer", "workspace", "Own reviewer."],
      ["general-purpose", "workspace", "Own helper."],
    ]);
    // Default's own list is unchanged by another workspace's.
    expect((await getJson<Agent>(api("/workspaces/default/agents/code-reviewer"))).body).toMatchObject({
      description: "Default's reviewer.",
      origin: "workspace",
    });
    expect((await fetch(api("/workspaces/default/agents/code-reviewer"), { method: "DELETE" })).status).toBe(204);
  });

  it("has no own level outside accounts mode: /api/me/skills and /api/me/agents say why", async () => {
    for (const path of ["/me/skills", "/me/agents", "/me/agents/code-reviewer"]) {
      expect(await expectApiError(await fetch(api(path)), 404, "not_found")).toMatch(
        /accounts mode \(HINTLINE_AUTH=accounts\)/,
      );
    }
    expect(
      await expectApiError(
        await fetch(api("/me/skills"), jsonRequest("POST", { name: "x", description: "d", instructions: "i" })),
        404,
        "not_found",
      ),
    ).toMatch(/accounts mode/);
    expect(await countRows(server.databaseUrl, "Workspace", "name", "\u0001user")).toBe(0);
    // Nor is any such container a workspace here.
    await expectApiError(await fetch(api("/workspaces/user-someone/skills")), 404, "not_found");
  });

  it("refuses bad ids, descriptions, tools and models, and a duplicate id, storing nothing", async () => {
    const ws = await newWorkspace("Agents refusals");
    const url = api(`/workspaces/${ws}/agents`);
    const refusals: Array<[unknown, RegExp]> = [
      [{ ...reviewer, id: "Code Reviewer" }, /id: must be kebab-case/],
      [{ ...reviewer, id: "a".repeat(65) }, /id: is 65 characters, over the agent id limit of 64/],
      [{ ...reviewer, description: "two\nlines" }, /description: must be one line/],
      [{ ...reviewer, description: "  " }, /description: must not be empty/],
      [{ ...reviewer, instructions: " " }, /instructions: must not be empty/],
      [
        { ...reviewer, tools: ["KnowledgeRead", "Bash"] },
        /tools: names unknown tool\(s\) "Bash"; the tools are: TaskCreate, /,
      ],
      [{ ...reviewer, tools: ["TaskList", "TaskList"] }, /tools: names TaskList twice/],
      [{ ...reviewer, tools: "KnowledgeRead" }, /tools: must be a list of tool names/],
      [{ ...reviewer, model: "has space" }, /model: must be a model id without spaces/],
      [{ ...reviewer, model: "anthropic/claude-sonnet-4-5" }, /Invalid model: .*ANTHROPIC_API_KEY/],
      [{ ...reviewer, extra: 1 }, /extra/],
    ];
    for (const [body, message] of refusals) {
      expect(await expectApiError(await fetch(url, jsonRequest("POST", body)), 400, "bad_request")).toMatch(message);
    }
    expect(await countRows(server.databaseUrl, "AgentDefinition", "workspaceId", ws)).toBe(0);
    expect((await fetch(url, jsonRequest("POST", reviewer))).status).toBe(201);
    expect(await expectApiError(await fetch(url, jsonRequest("POST", reviewer)), 409, "conflict")).toMatch(
      /already has an agent with the id code-reviewer/,
    );
    const one = `${url}/code-reviewer`;
    expect(await expectApiError(await fetch(one, jsonRequest("PATCH", {})), 400, "bad_request")).toMatch(
      /send description, instructions, tools, model and\/or maxSteps/,
    );
    expect(
      await expectApiError(await fetch(one, jsonRequest("PATCH", { model: "gpt-4o" })), 400, "bad_request"),
    ).toMatch(/Invalid model: .*OPENAI_API_KEY/);
    expect((await getJson<Agent>(one)).body).toMatchObject({ ...reviewer, origin: "workspace" });
    await expectApiError(await fetch(api(`/workspaces/${ws}/agents/Bad_Id`)), 400, "bad_request");
    await expectApiError(await fetch(api("/workspaces/no-such-ws/agents")), 404, "not_found");
    await expectApiError(
      await fetch(api("/workspaces/no-such-ws/agents"), jsonRequest("POST", reviewer)),
      404,
      "not_found",
    );
  });

  it("deleting a workspace deletes its agents with it", async () => {
    const ws = await newWorkspace("Agents cascade");
    expect((await fetch(api(`/workspaces/${ws}/agents`), jsonRequest("POST", reviewer))).status).toBe(201);
    expect((await fetch(api(`/workspaces/${ws}`), { method: "DELETE" })).status).toBe(204);
    expect(await countRows(server.databaseUrl, "AgentDefinition", "workspaceId", ws)).toBe(0);
  });
});
