// `npm run bench`: runs the benchmark scripts under bench/ and prints their figures.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsx = path.join(root, "node_modules/.bin/tsx");
const result = spawnSync(tsx, [path.join(root, "bench/prepare-call.ts")], { cwd: root, stdio: "inherit" });
process.exit(result.status ?? 1);
