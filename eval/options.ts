// `npm run eval`'s options: parsed strictly (an unknown flag is refused), and each one given is used or refused in words,
// never ignored.
import { parseArgs } from "node:util";

const OPTIONS = {
  "base-url": { type: "string" },
  model: { type: "string" },
  "api-key": { type: "string" },
  runs: { type: "string", default: "1" },
  only: { type: "string" },
  "context-window": { type: "string" },
  out: { type: "string", default: "eval-results" },
  list: { type: "boolean" },
  help: { type: "boolean" },
} as const;

/** The options as parsed, or an error that names the flag (and npm's habit of keeping flags given without `--`). */
export function parseEvalArgs(args: string[], env: NodeJS.ProcessEnv = process.env) {
  try {
    return parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const eaten = Object.keys(OPTIONS).filter((name) => env[`npm_config_${name.replace(/-/g, "_")}`] !== undefined);
    const message = error instanceof Error ? error.message : String(error);
    if (eaten.length)
      throw new Error(
        `${message}: npm kept --${eaten.join(", --")} for itself; put -- before the eval's options (npm run eval -- --${eaten[0]} …)`,
      );
    throw new Error(message);
  }
}

const MAX_CONTEXT_WINDOW = 10_000_000;

/** The options that need more than their type, checked before the harness loads; --model and --api-key need --base-url. */
export function checkedOptions(values: ReturnType<typeof parseEvalArgs>): {
  runs: number;
  contextWindow?: number;
  only?: string[];
} {
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 100) throw new Error("--runs must be a whole number from 1 to 100");
  if (values["base-url"] && !values.model) throw new Error("--model is required with --base-url");
  const serverOnly = (["model", "api-key"] as const).filter((name) => values[name] !== undefined);
  if (!values["base-url"] && serverOnly.length) {
    const flags = serverOnly.map((name) => `--${name}`).join(" and ");
    throw new Error(
      `${flags} ${serverOnly.length > 1 ? "apply" : "applies"} only with --base-url (without it the built-in demo model answers, which takes no model name or key)`,
    );
  }
  const window = values["context-window"];
  const contextWindow = window === undefined ? undefined : Number(window);
  if (
    contextWindow !== undefined &&
    (!Number.isInteger(contextWindow) || contextWindow < 1 || contextWindow > MAX_CONTEXT_WINDOW)
  ) {
    throw new Error(
      `--context-window must be a whole number of tokens from 1 to ${MAX_CONTEXT_WINDOW.toLocaleString("en")} (got ${JSON.stringify(window)})`,
    );
  }
  const only = values.only
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (only?.length === 0)
    throw new Error("--only names no scenario: give ids separated by commas (npm run eval -- --list shows them)");
  return { runs, contextWindow, only };
}
