// Subagents keep the parent's context small (issue #26 item 8): the same piece of work — reading a long survey file
// and reporting how it begins — done by the agent itself (the whole file lands in its context as a tool result) or
// handed to a subagent (the file lands in the child's context; the parent gets the child's short answer). Scored by
// the answer naming the survey's first station; the figure that matters is the table's "context tok": the input of
// the parent's last call.
import { pass } from "./score.ts";
import type { Scenario } from "./scenarios.ts";

export const SURVEY_FIRST_LINE = "Station 001: Elbe at Dresden, gauge 4.17 m, logger LX-7310";

const RIVERS = [
  "Rhine",
  "Danube",
  "Oder",
  "Weser",
  "Main",
  "Mosel",
  "Neckar",
  "Saale",
  "Havel",
  "Spree",
  "Inn",
  "Isar",
];

/** A 120-line survey, one station a line (about 3,000 tokens), the first line fixed. */
export function surveyFile(): string {
  const lines = [SURVEY_FIRST_LINE];
  for (let i = 2; i <= 120; i++) {
    const river = RIVERS[i % RIVERS.length]!;
    lines.push(
      `Station ${String(i).padStart(3, "0")}: ${river} at kilometre ${i * 7}, gauge ${((i * 37) % 500) / 100 + 1} m, logger LX-${7310 + i * 13}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

export const delegationScenario: Scenario = {
  id: "delegation-keeps-context-small",
  title: "Read a 120-line survey and say how it begins: done itself, or delegated to a subagent",
  start: "2026-07-01T09:00:00Z",
  axes: ["delegation"],
  run: async (c) => {
    await c.newWorkspace();
    await c.knowledge("survey.md", surveyFile());
    await c.open({ settings: { context: { contextWindow: 16_000 } } });
    await c.say("Hello! I have a river survey for you.");
    const turn = await c.say(c.delegates ? "delegate: read survey.md" : "read survey.md");
    // The next message is where the difference stays: everything the work left in the parent's context is sent again.
    await c.say("Thanks, that's all for now.");
    return pass(turn.answer.includes(SURVEY_FIRST_LINE), SURVEY_FIRST_LINE, turn.answer);
  },
};
