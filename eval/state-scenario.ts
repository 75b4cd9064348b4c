// A state source changes mid-conversation (issue 48 item 4): a deploy's status, served by the scenario itself on
// loopback, is "green" when the person first asks and "rolling back" five minutes later. The right answer follows the
// newest State hint (the demo model answers from it, as it does the time from the newest time hint); with the source
// switched off the agent is told nothing and cannot know either.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Scenario } from "./scenarios.ts";
import { scoreVerbatim } from "./score.ts";

async function serveState(fields: Record<string, string>) {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(fields));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/deploy`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const stateScenario: Scenario = {
  id: "state-changes-mid-conversation",
  title: "A deploy's status changes between two questions: the answer follows the workspace's state source",
  start: "2026-07-01T09:00:00Z",
  axes: ["state"],
  run: async (c) => {
    const fields = { status: "green", version: "1.4.2" };
    const source = await serveState(fields);
    try {
      await c.newWorkspace();
      await c.stateSource("deploy", source.url);
      await c.open();
      await c.say("Hello! We're shipping today.");
      const before = await c.say("What is the status of deploy?");
      // Read again once its refresh (60 s) is due on the simulated clock.
      Object.assign(fields, { status: "rolling back", version: "1.4.1" });
      c.advance({ minutes: 5 });
      const after = await c.say("What is the status of deploy?");
      const scores = [scoreVerbatim(before.answer, "green"), scoreVerbatim(after.answer, "rolling back")];
      return {
        correct: scores.reduce((n, s) => n + s.correct, 0),
        total: scores.length,
        expected: scores.map((s) => s.expected).join(" | "),
        got: scores.map((s) => s.got).join(" | "),
      };
    } finally {
      await source.close();
    }
  },
};
