// Runs the OpenAI fake as its own process (for browser tests that script it over /__fake/*):
//   node --experimental-strip-types tests/support/openai-fake-cli.ts --port 4599 [--host 127.0.0.1] [--cache-min-tokens 1024]
import { startOpenAIFake } from "./openai-fake.ts";

function argValue(name: string): string | undefined {
  const args = process.argv.slice(2);
  const inline = args.find((a) => a.startsWith(`${name}=`));
  if (inline) return inline.slice(name.length + 1);
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

const portArg = argValue("--port") ?? process.env.OPENAI_FAKE_PORT;
const port = portArg ? Number(portArg) : 4599;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`openai-fake: invalid --port ${portArg}`);
  process.exit(2);
}

const minArg = argValue("--cache-min-tokens");
const cacheMinTokens = minArg === undefined ? undefined : Number(minArg);
if (cacheMinTokens !== undefined && !(Number.isSafeInteger(cacheMinTokens) && cacheMinTokens >= 0)) {
  console.error(`openai-fake: invalid --cache-min-tokens ${minArg}`);
  process.exit(2);
}
const fake = await startOpenAIFake({ port, host: argValue("--host"), cacheMinTokens });
console.log(`openai-fake listening on ${fake.url}`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  await fake.close();
  console.log(`openai-fake stopped (${signal})`);
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
