// `npm run eval -- [--base-url URL --model NAME [--api-key K]] [--runs N] [--only a,b] [--context-window N] [--out DIR]`
// Runs the suite through Hintline's real harness (the demo model without --base-url), prints a table and writes every
// request and answer to eval-results/.
import { parseArgs } from "node:util";
import { prepareEnvironment } from "./harness.ts";
import { formatTable, type Progress, runEval, writeReport } from "./run.ts";
import { SCENARIOS } from "./scenarios.ts";

const USAGE = `usage: npm run eval -- [--base-url URL --model NAME [--api-key KEY]] [--runs N] [--only id,id] [--context-window N] [--out DIR] [--list]
Without --base-url the built-in demo model answers (offline, deterministic).`;

function progressReporter(stream: NodeJS.WriteStream): (p: Progress) => void {
  if (!stream.isTTY) return (p) => p.done < p.total && stream.write(`[${p.done + 1}/${p.total}] ${p.label}\n`);
  return (p) => {
    const width = 30;
    const filled = Math.round((p.done / Math.max(1, p.total)) * width);
    const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
    stream.write(`\r\x1b[K${bar} ${p.done}/${p.total} ${p.label.slice(0, 60)}${p.done === p.total ? "\n" : ""}`);
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      "base-url": { type: "string" },
      model: { type: "string" },
      "api-key": { type: "string" },
      runs: { type: "string", default: "1" },
      only: { type: "string" },
      "context-window": { type: "string" },
      out: { type: "string", default: "eval-results" },
      list: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) return console.log(USAGE);
  if (values.list) return console.log(SCENARIOS.map((s) => `${s.id.padEnd(32)} ${s.title}`).join("\n"));
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 100) throw new Error("--runs must be a whole number from 1 to 100");
  if (values["base-url"] && !values.model) throw new Error("--model is required with --base-url");
  const contextWindow = values["context-window"] ? Number(values["context-window"]) : undefined;
  const only = values.only?.split(",").map((s) => s.trim()).filter(Boolean);
  const env = prepareEnvironment({ baseUrl: values["base-url"], model: values.model, apiKey: values["api-key"], contextWindow });
  try {
    const report = await runEval({ only, runs, baseUrl: values["base-url"], onProgress: progressReporter(process.stderr) });
    console.log(`model: ${report.model.id} (${report.model.provider}), ${runs} run(s) per variant\n`);
    console.log(formatTable(report.rows));
    const file = writeReport(report, values.out!);
    console.log(`\nEvery request and answer: ${file}`);
  } finally {
    env.cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`eval: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(1);
  },
);
