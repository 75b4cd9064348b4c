// Runs the Anthropic or Gemini fake as its own process (for browser tests that script it over /__fake/*):
//   node --experimental-strip-types tests/support/provider-fake-cli.ts --provider anthropic|gemini --port 4601
//     [--host 127.0.0.1] [--cache-min-tokens 1024] [--api-key K] [--models id1,id2]
import { startAnthropicFake } from "./anthropic-fake.ts";
import { startGeminiFake } from "./gemini-fake.ts";

function argValue(name: string): string | undefined {
  const args = process.argv.slice(2);
  const inline = args.find((a) => a.startsWith(`${name}=`));
  if (inline) return inline.slice(name.length + 1);
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}
function exit(message: string): never {
  console.error(`provider-fake: ${message}`);
  process.exit(2);
}

const provider = argValue("--provider");
if (provider !== "anthropic" && provider !== "gemini") exit(`--provider must be anthropic or gemini, not ${provider}`);
const port = Number(argValue("--port") ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) exit(`invalid --port ${argValue("--port")}`);
const minArg = argValue("--cache-min-tokens");
const cacheMinTokens = minArg === undefined ? undefined : Number(minArg);
if (cacheMinTokens !== undefined && !(Number.isSafeInteger(cacheMinTokens) && cacheMinTokens >= 0))
  exit(`invalid --cache-min-tokens ${minArg}`);
const options = {
  port,
  host: argValue("--host"),
  cacheMinTokens,
  apiKey: argValue("--api-key"),
  models: argValue("--models")?.split(","),
};
const fake = await (provider === "anthropic" ? startAnthropicFake(options) : startGeminiFake(options));
console.log(`${provider}-fake listening on ${fake.url}`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  await fake.close();
  console.log(`${provider}-fake stopped (${signal})`);
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
