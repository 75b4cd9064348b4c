// Generates the Prisma clients for SQLite and PostgreSQL from the single prisma/schema.prisma.
// Runs offline: PRISMA_SCHEMA_ENGINE_BINARY points at any existing file so the CLI skips its engine download.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(root, "prisma/schema.prisma");
export const postgresSchemaPath = path.join(root, "prisma/.postgresql/schema.prisma");

export function derivePostgresSchema() {
  const text = fs.readFileSync(source, "utf8");
  const derived = text
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('output   = "../lib/db/generated/sqlite"', 'output   = "../../lib/db/generated/postgresql"');
  if (derived === text) throw new Error("prisma/schema.prisma: could not derive the PostgreSQL schema");
  fs.mkdirSync(path.dirname(postgresSchemaPath), { recursive: true });
  fs.writeFileSync(
    postgresSchemaPath,
    `// Derived from prisma/schema.prisma by scripts/db-generate.mjs — do not edit.\n${derived}`,
  );
  return postgresSchemaPath;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const prismaBin = path.join(root, "node_modules/prisma/build/index.js");
  const env = {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: path.join(root, "package.json"),
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
  };
  for (const schema of [source, derivePostgresSchema()]) {
    execFileSync(process.execPath, [prismaBin, "generate", "--schema", schema], { cwd: root, env, stdio: "inherit" });
  }
}
