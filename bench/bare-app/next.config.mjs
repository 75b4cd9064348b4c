// The reference app of the memory benchmark (bench/memory-bench.ts), built with the project's own `next` and
// node_modules (two directories up), into its own .next here.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** @type {import('next').NextConfig} */
export default {
  poweredByHeader: false,
  turbopack: { root },
  outputFileTracingRoot: root,
  typescript: { ignoreBuildErrors: true },
};
