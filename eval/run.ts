// Runs scenarios × variants × runs through the real harness and gathers the figures: accuracy, steps, input and
// cached tokens, wall time, and every turn (what was said, the hints, the tool calls, the answer).
import fs from "node:fs";
import path from "node:path";
import { setClock } from "../lib/clock.ts";
import { setHarnessOptions } from "../lib/harness-options.ts";
import { currentModel } from "../lib/ai/providers/index.ts";
import { type Action, EvalConversation, type Turn } from "./harness.ts";
import { type Axis, SCENARIOS, type Scenario } from "./scenarios.ts";
import { INJECTION_STRATEGIES, type InjectionStrategy } from "../lib/agent/injection-strategy.ts";

/** One setting of every axis. `strategy`: how hints keep the state current (settings.injection.strategy). */
export type Variant = {
  hints: boolean;
  strategy?: InjectionStrategy;
  errors?: "detailed" | "plain";
  ledger?: boolean;
  memory?: boolean;
  delegate?: boolean;
  /** The workspace's state source switched on, or off (issue 48). */
  state?: boolean;
};

const AXIS_VALUES: Record<Axis, ReadonlyArray<Partial<Variant>>> = {
  // Hints on under each status strategy, and hints off (where no strategy applies).
  hints: [...INJECTION_STRATEGIES.map((strategy) => ({ hints: true, strategy })), { hints: false }],
  errors: [{ errors: "detailed" }, { errors: "plain" }],
  ledger: [{ ledger: true }, { ledger: false }],
  // The workspace setting memory.fromCompression: durable facts kept at a compression, or not.
  memory: [{ memory: true }, { memory: false }],
  // The person hands the work to a subagent, or asks the agent to do it itself.
  delegation: [{ delegate: true }, { delegate: false }],
  // The workspace's state source on, or switched off.
  state: [{ state: true }, { state: false }],
};

export function variantsOf(scenario: Scenario): Variant[] {
  const axes = scenario.axes ?? ["hints"];
  let variants: Variant[] = [{ hints: true }];
  for (const axis of axes) variants = variants.flatMap((v) => AXIS_VALUES[axis].map((value) => ({ ...v, ...value })));
  return variants;
}

export function variantName(v: Variant): string {
  const parts = [v.hints ? "hints on" : "hints off"];
  if (v.strategy) parts.push(v.strategy);
  if (v.errors) parts.push(`${v.errors} errors`);
  if (v.ledger !== undefined) parts.push(v.ledger ? "ledger" : "no ledger");
  if (v.memory !== undefined) parts.push(v.memory ? "memory from compression" : "no memory from compression");
  if (v.delegate !== undefined) parts.push(v.delegate ? "delegated" : "done itself");
  if (v.state !== undefined) parts.push(v.state ? "state source on" : "state source off");
  return parts.join(" · ");
}

export type RunRecord = {
  scenario: string;
  variant: string;
  run: number;
  correct: number;
  total: number;
  expected: string;
  got: string;
  error?: string;
  steps: number;
  inputTokens: number;
  cachedInputTokens: number;
  /** The input of the run's last model call: how full the context was when it ended. */
  contextTokens: number;
  wallMs: number;
  turns: Turn[];
  actions: Action[];
};

export type Row = {
  scenario: string;
  variant: string;
  runs: number;
  accuracy: number;
  correct: number;
  total: number;
  steps: number;
  inputTokens: number;
  cachedInputTokens: number;
  contextTokens: number;
  wallMs: number;
};

export type EvalReport = {
  model: { id: string; provider: string; contextWindow: number; baseUrl?: string };
  startedAt: string;
  finishedAt: string;
  runsPerVariant: number;
  rows: Row[];
  records: RunRecord[];
};

export type Progress = { done: number; total: number; label: string };

export function selectScenarios(only?: readonly string[]): Scenario[] {
  if (!only?.length) return [...SCENARIOS];
  const unknown = only.filter((id) => !SCENARIOS.some((s) => s.id === id));
  if (unknown.length)
    throw new Error(`unknown scenario(s): ${unknown.join(", ")} (known: ${SCENARIOS.map((s) => s.id).join(", ")})`);
  return SCENARIOS.filter((s) => only.includes(s.id));
}

async function runOnce(scenario: Scenario, variant: Variant, run: number): Promise<RunRecord> {
  setHarnessOptions({
    ledger: variant.ledger ?? true,
    toolCallCounter: variant.errors !== "plain",
    toolErrorDetails: variant.errors !== "plain",
  });
  const conversation = new EvalConversation(scenario.start, {
    hints: variant.hints,
    strategy: variant.strategy,
    memoryFromCompression: variant.memory,
    delegate: variant.delegate,
    state: variant.state,
  });
  const started = performance.now();
  let score: { correct: number; total: number; expected: string; got: string };
  let error: string | undefined;
  try {
    score = await scenario.run(conversation);
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message : String(thrown);
    score = { correct: 0, total: 1, expected: "", got: "" };
  } finally {
    setHarnessOptions();
    setClock();
  }
  const calls = conversation.turns.flatMap((t) => t.calls);
  return {
    scenario: scenario.id,
    variant: variantName(variant),
    run,
    ...score,
    ...(error ? { error } : {}),
    steps: conversation.turns.reduce((n, t) => n + t.steps, 0),
    inputTokens: calls.reduce((n, c) => n + (c.inputTokens ?? 0), 0),
    cachedInputTokens: calls.reduce((n, c) => n + (c.cachedInputTokens ?? 0), 0),
    contextTokens: calls.at(-1)?.inputTokens ?? 0,
    wallMs: Math.round(performance.now() - started),
    turns: conversation.turns,
    actions: conversation.actions,
  };
}

export function summarize(records: readonly RunRecord[]): Row[] {
  const rows = new Map<string, Row>();
  for (const r of records) {
    const key = `${r.scenario}\u0000${r.variant}`;
    const row = rows.get(key) ?? {
      scenario: r.scenario,
      variant: r.variant,
      runs: 0,
      accuracy: 0,
      correct: 0,
      total: 0,
      steps: 0,
      inputTokens: 0,
      cachedInputTokens: 0,
      contextTokens: 0,
      wallMs: 0,
    };
    row.runs++;
    row.correct += r.correct;
    row.total += r.total;
    row.steps += r.steps;
    row.inputTokens += r.inputTokens;
    row.cachedInputTokens += r.cachedInputTokens;
    row.contextTokens += r.contextTokens;
    row.wallMs += r.wallMs;
    rows.set(key, row);
  }
  // Figures per run (averages), accuracy over all scored answers.
  return [...rows.values()].map((row) => ({
    ...row,
    accuracy: row.total ? row.correct / row.total : 0,
    steps: Math.round(row.steps / row.runs),
    inputTokens: Math.round(row.inputTokens / row.runs),
    cachedInputTokens: Math.round(row.cachedInputTokens / row.runs),
    contextTokens: Math.round(row.contextTokens / row.runs),
    wallMs: Math.round(row.wallMs / row.runs),
  }));
}

export async function runEval({
  only,
  runs = 1,
  baseUrl,
  onProgress,
}: {
  only?: readonly string[];
  runs?: number;
  baseUrl?: string;
  onProgress?: (progress: Progress) => void;
}): Promise<EvalReport> {
  const scenarios = selectScenarios(only);
  const plan = scenarios.flatMap((scenario) =>
    variantsOf(scenario).flatMap((variant) => Array.from({ length: runs }, (_, run) => ({ scenario, variant, run }))),
  );
  const startedAt = new Date().toISOString();
  const records: RunRecord[] = [];
  for (const [i, { scenario, variant, run }] of plan.entries()) {
    onProgress?.({
      done: i,
      total: plan.length,
      label: `${scenario.id} · ${variantName(variant)}${runs > 1 ? ` · run ${run + 1}` : ""}`,
    });
    records.push(await runOnce(scenario, variant, run));
  }
  onProgress?.({ done: plan.length, total: plan.length, label: "done" });
  const { info } = currentModel();
  return {
    model: { id: info.id, provider: info.provider, contextWindow: info.contextWindow, ...(baseUrl ? { baseUrl } : {}) },
    startedAt,
    finishedAt: new Date().toISOString(),
    runsPerVariant: runs,
    rows: summarize(records),
    records,
  };
}

const pct = (n: number) => `${Math.round(n * 100)} %`;

/** The report as a plain-text table, one row per scenario and variant. */
export function formatTable(rows: readonly Row[]): string {
  const head = [
    "scenario",
    "variant",
    "accuracy",
    "right",
    "steps",
    "input tok",
    "cached tok",
    "context tok",
    "wall ms",
  ];
  const body = rows.map((r) => [
    r.scenario,
    r.variant,
    pct(r.accuracy),
    `${r.correct}/${r.total}`,
    String(r.steps),
    String(r.inputTokens),
    String(r.cachedInputTokens),
    String(r.contextTokens),
    String(r.wallMs),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

/** Writes the whole report (every turn of every run) as JSON under `dir`; returns the file's path. */
export function writeReport(report: EvalReport, dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(
    dir,
    `eval-${report.startedAt.replace(/[:.]/g, "-")}-${report.model.id.replace(/[^\w.-]+/g, "_")}.json`,
  );
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
