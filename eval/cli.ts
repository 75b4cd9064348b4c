// `npm run eval -- [--base-url URL --model NAME [--api-key K]] [--runs N] [--only a,b] [--context-window N] [--out DIR]`
// Runs the suite through Hintline's real harness (the demo model without --base-url), prints a table and writes every
// request and answer to eval-results/.
import { checkedOptions, parseEvalArgs } from "./options.ts";
import { baseUrlProblem } from "./preflight.ts";
import type { Progress } from "./run.ts";

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
  const values = parseEvalArgs(process.argv.slice(2));
  if (values.help) return console.log(USAGE);
  // The harness (and the whole app behind it) loads only once the flags and the model server are known to be right:
  // a typo or an unusable URL fails at once.
  if (values.list) {
    const { SCENARIOS } = await import("./scenarios.ts");
    return console.log(SCENARIOS.map((s) => `${s.id.padEnd(32)} ${s.title}`).join("\n"));
  }
  const { runs, contextWindow, only } = checkedOptions(values);
  if (values["base-url"]) {
    const problem = await baseUrlProblem({
      baseUrl: values["base-url"],
      model: values.model!,
      apiKey: values["api-key"],
    });
    if (problem) throw new Error(problem);
  }
  const { prepareEnvironment } = await import("./harness.ts");
  const { formatTable, runEval, writeReport } = await import("./run.ts");
  const env = prepareEnvironment({
    baseUrl: values["base-url"],
    model: values.model,
    apiKey: values["api-key"],
    contextWindow,
  });
  try {
    const report = await runEval({
      only,
      runs,
      baseUrl: values["base-url"],
      onProgress: progressReporter(process.stderr),
    });
    console.log(`model: ${report.model.id} (${report.model.provider}), ${runs} run(s) per variant\n`);
    console.log(formatTable(report.rows));
    const file = writeReport(report, values.out!);
    console.log(`\nEvery request and answer: ${file}`);
    // A model that answered nothing at all was not measured: that is a failure, not 0 %.
    const failed = report.records.filter((r) => r.error || r.turns.every((t) => t.status === "error"));
    if (failed.length === report.records.length) {
      const first = failed[0];
      const reason = first?.error ?? first?.turns.find((t) => t.status === "error")?.answer ?? "no answer";
      throw new Error(`every run failed, so nothing was measured (first: ${reason})`);
    }
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
