/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and driver packages stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@prisma/adapter-pg", "gpt-tokenizer"],
  poweredByHeader: false,
  // HINTLINE_DIST_DIR lets two builds live side by side (e.g. a test run while another build is made).
  distDir: process.env.HINTLINE_DIST_DIR || ".next",
  typedRoutes: false,
  // Next.js would answer "/api/…/tasks/%2e%2e" (resolved to ".../" + a trailing slash) with a 308 to the conversation,
  // which a client repeats its DELETE on: proxy.ts refuses such API paths and redirects only pages.
  skipTrailingSlashRedirect: true,
  // proxy.ts makes Next.js buffer every body for it, cut at 10 MB by default: an import (up to
  // HINTLINE_MAX_IMPORT_BYTES, 32 MiB by default, lib/api/limits.ts) arrived cut and was refused as "not valid JSON".
  // The buffer allows the import limit plus 1 MiB, so a body over the limit still reaches the route over it, which
  // answers 413 "too large".
  experimental: { proxyClientMaxBodySize: (Number(process.env.HINTLINE_MAX_IMPORT_BYTES) || 32 * 1024 * 1024) + 1024 * 1024 },
  // `npm test` type-checks the whole project (tsc); `npm start` should not fail on a test file's types.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
