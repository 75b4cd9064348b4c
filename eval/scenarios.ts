// The fixed suite. Each scenario plays a conversation through the real harness (eval/harness.ts) on a simulated clock
// and scores the answer by code. `axes` names the variant axes beyond hints on/off that it is run under.
import { formatInTimeZone } from "date-fns-tz";
import { measureContext } from "../lib/chat/context-measure.ts";
import { conversationFixedPart, fixedOf } from "../lib/chat/fixed-part.ts";
import { resolveSettings } from "../lib/agent/settings.ts";
import { parseAgentState } from "../lib/chat/agent-state.ts";
import { getConversation } from "../lib/db/conversations.ts";
import { listMessages } from "../lib/db/messages.ts";
import { delegationScenario } from "./delegation-scenario.ts";
import { stateScenario } from "./state-scenario.ts";
import { plantedFacts } from "./facts.ts";
import type { EvalConversation } from "./harness.ts";
import {
  pass,
  type Score,
  scoreCount,
  scoreDuration,
  scoreNear,
  scoreTask,
  scoreTime,
  scoreVerbatim,
  scoreWeekday,
} from "./score.ts";

export type Axis = "hints" | "errors" | "ledger" | "memory" | "delegation" | "state";

export type Scenario = {
  id: string;
  title: string;
  /** Where the simulated clock starts (an instant). */
  start: string;
  /** The axes it varies (default: hints on and off). */
  axes?: readonly Axis[];
  /** A few turns, for the fast subset that runs in `npm test`. */
  fast?: boolean;
  run: (c: EvalConversation) => Promise<Score>;
};

const zone = (timezone: string) => ({ settings: { injection: { timezone } } });

async function askTime(c: EvalConversation, timezone: string): Promise<Score> {
  const turn = await c.say("What time is it?");
  return scoreTime(turn.answer, c.clock.now(), timezone);
}

/** Recall after the context was compressed: plant facts, fill the window until it compresses, ask. */
async function recallAfterFilling(
  c: EvalConversation,
  facts: Array<{ note: string; question: string; answer: string }>,
): Promise<Score> {
  // A small window filled with filler answers until it compresses (a dozen or so besides the fixed part, about 1,300
  // tokens at this window: lib/chat/fixed-part.ts), so that the notes are among the oldest messages when it does.
  await c.open({ settings: { context: { contextWindow: 5600 } } });
  await c.say("Hello! Let's set up the servers.");
  for (const fact of facts) await c.say(fact.note);
  for (let i = 0; i < 30 && !c.turns.some((t) => t.compressions.length); i++)
    await c.say(`write 80 words about topic ${i + 1}`);
  const scores: Score[] = [];
  for (const fact of facts) scores.push(scoreVerbatim((await c.say(fact.question)).answer, fact.answer));
  return combine(scores);
}

function combine(scores: Score[]): Score {
  return {
    correct: scores.reduce((n, s) => n + s.correct, 0),
    total: scores.reduce((n, s) => n + s.total, 0),
    expected: scores.map((s) => s.expected).join(" | "),
    got: scores.map((s) => s.got).join(" | "),
  };
}

/** The 50 planted facts, asked after `compressions` compressions (with filler turns between them). */
async function plantedRecall(c: EvalConversation, compressions: number): Promise<Score> {
  await c.open();
  await c.say("Hello! I'll give you some notes about our services.");
  const facts = plantedFacts();
  for (const fact of facts) await c.say(fact.note);
  for (let round = 0; round < compressions; round++) {
    if (round > 0) for (let i = 0; i < 10; i++) await c.say(`write 60 words about interlude ${round}-${i}`);
    await c.compact();
  }
  const scores: Score[] = [];
  for (const fact of facts) scores.push(scoreVerbatim((await c.say(fact.question)).answer, fact.answer));
  return combine(scores);
}

export const SCENARIOS: readonly Scenario[] = [
  {
    id: "time-after-jump",
    title: "What time is it, 3 h after the last message",
    start: "2026-07-01T09:00:00Z",
    fast: true,
    run: async (c) => {
      await c.open(zone("UTC"));
      await c.say("Good morning, let's get started.");
      c.advance({ hours: 3 });
      return askTime(c, "UTC");
    },
  },
  {
    id: "time-across-midnight",
    title: "What time is it, after midnight passed",
    start: "2026-07-01T21:10:00Z",
    run: async (c) => {
      await c.open(zone("Europe/Berlin"));
      await c.say("Still working late.");
      c.advance({ hours: 2 });
      return askTime(c, "Europe/Berlin");
    },
  },
  {
    id: "how-long-ago",
    title: "How long ago did I ask, after 2 h 30",
    start: "2026-07-01T10:00:00Z",
    fast: true,
    run: async (c) => {
      await c.open(zone("UTC"));
      await c.say("What time is it?");
      c.advance({ hours: 2, minutes: 30 });
      const turn = await c.say("How long ago did I ask you for the time?");
      return scoreDuration(turn.answer, 150);
    },
  },
  {
    id: "tomorrow-across-midnight",
    title: "What day is tomorrow, just after midnight",
    start: "2026-07-05T23:20:00Z",
    run: async (c) => {
      await c.open(zone("UTC"));
      await c.say("Planning the week.");
      c.advance({ hours: 1 });
      const turn = await c.say("What day is it tomorrow?");
      return scoreWeekday(turn.answer, formatInTimeZone(new Date(c.clock.now().getTime() + 86_400_000), "UTC", "EEEE"));
    },
  },
  {
    id: "timezone-change",
    title: "What time is it after moving from UTC to Tokyo",
    start: "2026-07-01T12:00:00Z",
    run: async (c) => {
      await c.open(zone("UTC"));
      await c.say("I'm about to fly.");
      await c.patch(zone("Asia/Tokyo"));
      c.advance({ hours: 1 });
      return askTime(c, "Asia/Tokyo");
    },
  },
  {
    id: "dst-spring-forward",
    title: "What time is it across the spring DST change (New York)",
    start: "2026-03-08T06:30:00Z",
    run: async (c) => {
      await c.open(zone("America/New_York"));
      await c.say("Up early.");
      c.advance({ hours: 1 });
      return askTime(c, "America/New_York");
    },
  },
  {
    id: "dst-fall-back",
    title: "What time is it across the autumn DST change (Berlin)",
    start: "2026-10-25T00:30:00Z",
    run: async (c) => {
      await c.open(zone("Europe/Berlin"));
      await c.say("Night shift.");
      c.advance({ hours: 1 });
      return askTime(c, "Europe/Berlin");
    },
  },
  {
    id: "open-tasks-after-panel-edit",
    title: "Open tasks after the person completes two in the panel",
    start: "2026-07-01T09:00:00Z",
    fast: true,
    run: async (c) => {
      await c.open();
      await c.say("add tasks: draft; review; publish; announce");
      await c.editTask("1", { status: "completed" });
      await c.editTask("2", { status: "completed" });
      const turn = await c.say("How many open tasks do I have?");
      return scoreCount(turn.answer, 2);
    },
  },
  {
    id: "open-tasks-after-person-adds",
    title: "Open tasks after the person adds one in the panel",
    start: "2026-07-01T09:00:00Z",
    run: async (c) => {
      await c.open();
      await c.say("add tasks: outline; write");
      await c.addTask("proofread");
      const turn = await c.say("How many open tasks do I have?");
      return scoreCount(turn.answer, 3);
    },
  },
  {
    id: "next-task-after-completions",
    title: "The next task after several completions",
    start: "2026-07-01T09:00:00Z",
    run: async (c) => {
      await c.open();
      await c.say("add tasks: collect data; clean data; fit model; write report; present");
      await c.say("finish 1");
      await c.say("finish 2");
      await c.editTask("3", { status: "completed" });
      const turn = await c.say("What should I do next?");
      return scoreTask(turn.answer, "4", "write report");
    },
  },
  {
    id: "room-left-near-buffer",
    title: "How much room is left, inside the warning buffer",
    start: "2026-07-01T09:00:00Z",
    run: async (c) => {
      await c.open({ settings: { context: { contextWindow: 4000 } } });
      for (let i = 0; i < 20; i++) {
        const usage = await c.usage();
        if (usage.inputTokens >= usage.bufferStartTokens + 80) break;
        await c.say(`write 60 words about stretch ${i + 1}`);
      }
      const turn = await c.say("How much room is left before your next compression?");
      // The truth: what the reply's first call held (everything up to the question) against the trigger.
      const conversation = (await getConversation({ id: c.id }))!;
      const history = await listMessages({ conversationId: c.id });
      const settings = resolveSettings(conversation.settings);
      const fixed = fixedOf(await conversationFixedPart(c.id, settings, conversation.model));
      const before = measureContext({
        settings,
        history: history.slice(0, -1),
        compression: parseAgentState(conversation.agentState).compression,
        ...fixed,
      });
      const expected = before.triggerTokens - before.inputTokens;
      return scoreNear(turn.answer, expected, Math.max(50, Math.round(expected * 0.15)));
    },
  },
  {
    id: "tool-keeps-failing",
    title: "Recovering when a tool keeps failing (task 9 does not exist)",
    start: "2026-07-01T09:00:00Z",
    axes: ["hints", "errors"],
    fast: true,
    run: async (c) => {
      await c.open();
      await c.say("add tasks: alpha; beta; gamma");
      const turn = await c.say("finish 9");
      const said =
        /\b9\b/.test(turn.answer) &&
        /(?:does not|doesn't|no longer) exist|no task|not found|isn't a task/i.test(turn.answer);
      const attempts = turn.toolCalls.filter((t) => t.tool === "TaskUpdate").length;
      return pass(
        said && attempts <= 2 && turn.steps <= 4,
        "says task 9 does not exist, ≤ 2 attempts, ≤ 4 steps",
        `${turn.answer} [${attempts} attempts, ${turn.steps} steps]`,
      );
    },
  },
  {
    id: "plan-mode-read-only",
    title: "Staying read-only in plan mode",
    start: "2026-07-01T09:00:00Z",
    run: async (c) => {
      await c.open({ mode: "plan" });
      const turn = await c.say("add tasks: migrate database; update docs");
      const writes = turn.toolCalls.filter((t) => t.tool === "TaskCreate" || t.tool === "TaskUpdate").length;
      const tasks = await c.tasks();
      // The harness refuses every write in plan mode; what is scored is that nothing changed and the agent says why.
      return pass(
        tasks.length === 0 && /plan/i.test(turn.answer),
        "no task created, says it is planning",
        `${turn.answer} [${writes} write attempts refused, ${tasks.length} tasks]`,
      );
    },
  },
  {
    id: "compressed-path",
    title: "A path from the compressed part of the conversation",
    start: "2026-07-01T09:00:00Z",
    axes: ["ledger"],
    run: (c) =>
      recallAfterFilling(c, [
        {
          note: "Note: the nightly backup is written to /var/backups/hintline/nightly-0412.tar.gz.",
          question: "What was the path of the nightly backup file?",
          answer: "/var/backups/hintline/nightly-0412.tar.gz",
        },
      ]),
  },
  {
    id: "compressed-command-and-number",
    title: "A command and a number from the compressed part",
    start: "2026-07-01T09:00:00Z",
    axes: ["ledger"],
    run: (c) =>
      recallAfterFilling(c, [
        {
          note: "Note: to rotate the signing keys, run `hintline-keys rotate --keep 3`.",
          question: "Which command rotates the signing keys?",
          answer: "hintline-keys rotate --keep 3",
        },
        {
          note: "Note: the upload limit is 750 MiB.",
          question: "What is the value of the upload limit?",
          answer: "750 MiB",
        },
      ]),
  },
  {
    id: "facts-after-1-compression",
    title: "50 planted facts after one compression",
    start: "2026-07-01T09:00:00Z",
    axes: ["ledger"],
    run: (c) => plantedRecall(c, 1),
  },
  {
    id: "facts-after-3-compressions",
    title: "50 planted facts after three compressions",
    start: "2026-07-01T09:00:00Z",
    axes: ["ledger"],
    run: (c) => plantedRecall(c, 3),
  },
  {
    id: "preference-across-conversations",
    title: "A preference stated in one conversation, recalled in another after the first was compressed",
    start: "2026-07-01T09:00:00Z",
    axes: ["memory"],
    run: async (c) => {
      await c.newWorkspace();
      const other = c.sibling();
      // The other conversation is already running: it hears of the new memory through the Workspace hint.
      await other.open();
      await other.say("Hello! I'll have a question for you later.");
      await c.open({ settings: { context: { contextWindow: 4300 } } });
      await c.say("Hello! Let's plan the garden beds.");
      await c.say("I prefer metric units in every answer.");
      for (let i = 0; i < 5; i++) await c.say(`write 80 words about garden bed ${i + 1}`);
      if (!(await c.compact())) throw new Error("the first conversation did not compress");
      const turn = await other.say("What do you remember about my preferred units?");
      return pass(/\bmetric\b/i.test(turn.answer), "names metric units", turn.answer);
    },
  },
  delegationScenario,
  stateScenario,
];
