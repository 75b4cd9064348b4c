import { maxRouteBodyBytes } from "./lib/api/body-limits.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and driver packages stay outside the server bundle.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "pg",
    "pg-boss",
    "@prisma/adapter-pg",
    "gpt-tokenizer",
  ],
  poweredByHeader: false,
  // HINTLINE_DIST_DIR lets two builds live side by side (e.g. a test run while another build is made).
  distDir: process.env.HINTLINE_DIST_DIR || ".next",
  typedRoutes: false,
  // Next.js would answer "/api/…/tasks/%2e%2e" (resolved to ".../" + a trailing slash) with a 308 to the conversation,
  // which a client repeats its DELETE on: proxy.ts refuses such API paths and redirects only pages.
  skipTrailingSlashRedirect: true,
  // proxy.ts makes Next.js buffer every body for it, cut at 10 MB by default: an import (up to
  // HINTLINE_MAX_IMPORT_BYTES, 32 MiB by default) arrived cut and was refused as "not valid JSON". The buffer allows
  // the largest body a route takes (an import's, or a chat message's with its attachments: lib/api/body-limits.mjs)
  // plus 1 MiB, so a body over a route's limit still reaches the route, which answers 413 "too large".
  // turbopackFileSystemCacheForBuild: off under CI, which builds once on a clean clone and would spend a quarter of the
  // build writing a cache nothing reads (71 → 55 s); on a person's machine it makes the build after an update faster.
  // preloadEntriesOnStart: false — a route's code is loaded by its first request, not every route's at start (Next.js
  // preloads them all by default): a server holds only what it serves (docs/benchmarks.md, "2026-12-03 (session 18)").
  experimental: {
    proxyClientMaxBodySize: maxRouteBodyBytes() + 1024 * 1024,
    preloadEntriesOnStart: false,
    turbopackFileSystemCacheForBuild: process.env.CI !== "true",
  },
  // `npm test` type-checks the whole project (tsc); `npm start` should not fail on a test file's types.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
