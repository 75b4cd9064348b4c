const envNumber = (name, fallback) => {
  const value = Number(process.env[name]?.trim() || Number.NaN);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
};
const importBytes = () => envNumber("HINTLINE_MAX_IMPORT_BYTES", 32 * 1024 * 1024) || 32 * 1024 * 1024;
const chatBytes = () =>
  100 * 1024 + Math.floor(envNumber("HINTLINE_MAX_ATTACHMENTS", 4)) * (Math.ceil((Math.floor(envNumber("HINTLINE_MAX_ATTACHMENT_BYTES", 8 * 1024 * 1024)) || 8 * 1024 * 1024) / 3) * 4 + 1024);

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
  // A chat body with attachments may be larger (lib/chat/attachments.ts maxChatBodyBytes: 100 KiB of text plus
  // HINTLINE_MAX_ATTACHMENTS files of HINTLINE_MAX_ATTACHMENT_BYTES as base64): the buffer fits the larger of the two.
  // preloadEntriesOnStart: false — a route's code is loaded by its first request, not every route's at start (Next.js
  // preloads them all by default): a server holds only what it serves (docs/benchmarks.md, "2026-12-03 (session 18)").
  experimental: { proxyClientMaxBodySize: Math.max(importBytes(), chatBytes()) + 1024 * 1024, preloadEntriesOnStart: false },
  // `npm test` type-checks the whole project (tsc); `npm start` should not fail on a test file's types.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
