// The fast subset of `npm run eval`, on the demo model through the real harness (a throwaway SQLite database): the
// table and the JSON have their shape, every run is scored, and the measured differences are there.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "../lib/db/client.ts";
import { prepareEnvironment } from "./harness.ts";
import { type EvalReport, formatTable, runEval, writeReport } from "./run.ts";

describe("npm run eval (fast subset, demo model)", () => {
  let env: ReturnType<typeof prepareEnvironment>;
  let report: EvalReport;

  beforeAll(async () => {
    env = prepareEnvironment({});
    report = await runEval({
      only: [
        "time-after-jump",
        "tool-keeps-failing",
        "compressed-path",
        "preference-across-conversations",
        "delegation-keeps-context-small",
        "state-changes-mid-conversation",
      ],
    });
  }, 90_000);

  afterAll(async () => {
    await disconnectDb();
    env.cleanup();
  });

  it("runs every scenario under every variant and scores each run", () => {
    expect(report.model).toMatchObject({ id: "hintline-demo", provider: "demo" });
    expect(report.rows.map((r) => `${r.scenario} / ${r.variant}`)).toEqual([
      "time-after-jump / hints on · append",
      "time-after-jump / hints on · replace",
      "time-after-jump / hints on · auto",
      "time-after-jump / hints off",
      "tool-keeps-failing / hints on · append · detailed errors",
      "tool-keeps-failing / hints on · append · plain errors",
      "tool-keeps-failing / hints on · replace · detailed errors",
      "tool-keeps-failing / hints on · replace · plain errors",
      "tool-keeps-failing / hints on · auto · detailed errors",
      "tool-keeps-failing / hints on · auto · plain errors",
      "tool-keeps-failing / hints off · detailed errors",
      "tool-keeps-failing / hints off · plain errors",
      "compressed-path / hints on · ledger",
      "compressed-path / hints on · no ledger",
      "preference-across-conversations / hints on · memory from compression",
      "preference-across-conversations / hints on · no memory from compression",
      "delegation-keeps-context-small / hints on · delegated",
      "delegation-keeps-context-small / hints on · done itself",
      "state-changes-mid-conversation / hints on · state source on",
      "state-changes-mid-conversation / hints on · state source off",
    ]);
    for (const row of report.rows) {
      expect(row.total).toBeGreaterThan(0);
      expect(row.accuracy).toBe(row.correct / row.total);
      expect(row.steps).toBeGreaterThan(0);
      expect(row.inputTokens).toBeGreaterThan(0);
    }
    for (const record of report.records) expect(record.error).toBeUndefined();
  });

  it("measures what hints, each status strategy, detailed errors, the ledger, memory from compression and a state source are worth on the demo model", () => {
    const accuracy = Object.fromEntries(report.rows.map((r) => [`${r.scenario} / ${r.variant}`, r.accuracy]));
    for (const strategy of ["append", "replace", "auto"])
      expect(accuracy[`time-after-jump / hints on · ${strategy}`]).toBe(1);
    expect(accuracy["time-after-jump / hints off"]).toBe(0);
    expect(accuracy["tool-keeps-failing / hints on · append · detailed errors"]).toBe(1);
    expect(accuracy["tool-keeps-failing / hints on · append · plain errors"]).toBe(0);
    expect(accuracy["compressed-path / hints on · ledger"]).toBe(1);
    expect(accuracy["compressed-path / hints on · no ledger"]).toBe(0);
    // A preference said in one conversation reaches another of the workspace only through memory kept at a compression.
    expect(accuracy["preference-across-conversations / hints on · memory from compression"]).toBe(1);
    expect(accuracy["preference-across-conversations / hints on · no memory from compression"]).toBe(0);
    // A status that changes between two questions is answered right only while the state source is on.
    expect(accuracy["state-changes-mid-conversation / hints on · state source on"]).toBe(1);
    expect(accuracy["state-changes-mid-conversation / hints on · state source off"]).toBe(0);
  });

  it("measures that delegating the work keeps the parent's context smaller than doing it itself, at the same accuracy", () => {
    const row = (variant: string) =>
      report.rows.find(
        (r) => r.scenario === "delegation-keeps-context-small" && r.variant === `hints on · ${variant}`,
      )!;
    const delegated = row("delegated");
    const itself = row("done itself");
    expect([delegated.accuracy, itself.accuracy]).toEqual([1, 1]);
    // The survey (about 3,000 tokens) is in the context of the agent that read it: the child's, when delegated.
    expect(itself.contextTokens - delegated.contextTokens).toBeGreaterThan(2000);
    const record = report.records.find(
      (r) => r.scenario === "delegation-keeps-context-small" && r.variant === "hints on · delegated",
    )!;
    expect(record.turns[1]!.toolCalls.map((call) => call.tool)).toEqual(["AgentSpawn"]);
  });

  it("prints a table and writes every request and answer as JSON", () => {
    const table = formatTable(report.rows).split("\n");
    expect(table[0]).toMatch(
      /^scenario\s+variant\s+accuracy\s+right\s+steps\s+input tok\s+cached tok\s+context tok\s+wall ms$/,
    );
    expect(table).toHaveLength(2 + report.rows.length);
    expect(table[2]).toMatch(/^time-after-jump\s+hints on · append\s+100 %\s+1\/1/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-eval-out-"));
    const saved = JSON.parse(fs.readFileSync(writeReport(report, dir), "utf8")) as EvalReport;
    fs.rmSync(dir, { recursive: true, force: true });
    const jump = saved.records.find((r) => r.scenario === "time-after-jump" && r.variant === "hints on · append")!;
    expect(jump.turns.map((t) => t.said)).toEqual(["Good morning, let's get started.", "What time is it?"]);
    expect(jump.turns[1]!.at).toBe("2026-07-01T12:00:00.000Z");
    expect(jump.turns[1]!.hints[0]).toContain("<current-time>2026-07-01T12:00:00</current-time>");
    expect(jump.turns[1]!.answer).toContain("12:00");
    expect(jump.actions).toContainEqual({
      at: "2026-07-01T09:00:00.000Z",
      action: "advance clock",
      detail: { hours: 3 },
    });
  });
});
