/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and driver packages stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@prisma/adapter-pg", "gpt-tokenizer"],
  poweredByHeader: false,
  // HINTLINE_DIST_DIR lets two builds live side by side (e.g. a test run while another build is made).
  distDir: process.env.HINTLINE_DIST_DIR || ".next",
  typedRoutes: false,
  // `npm test` type-checks the whole project (tsc); `npm start` should not fail on a test file's types.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
