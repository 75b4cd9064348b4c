// Applies and creates Prisma migrations offline, on SQLite and PostgreSQL, through @prisma/schema-engine-wasm and
// a driver adapter (the native schema engine cannot be downloaded here). It writes Prisma's standard migration
// folders and `_prisma_migrations` table, so `prisma migrate deploy` can take over where the native engine exists.
//
//   node scripts/db-migrate.mjs deploy               apply pending migrations to DATABASE_URL (default: SQLite file)
//   node scripts/db-migrate.mjs new <name>           write prisma/migrations/<provider>/<ts>_<name> for the schema change
//                                                    (SQLite: diffed against the existing migrations;
//                                                     PostgreSQL: DATABASE_URL=postgresql://… and --from <old schema>)
//   node scripts/db-migrate.mjs diff                 print the SQL that creates the whole schema
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { derivePostgresSchema } from "./db-generate.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_DATABASE_URL = "file:./data/hintline.db";

async function loadEngineModule() {
  const require = createRequire(import.meta.url);
  // The package's main entry does `import * as wasm from "./x.wasm"`, which plain Node cannot load:
  // load the wasm-bindgen glue and instantiate the module by hand.
  const pkgDir = path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
  const bg = await import(path.join(pkgDir, "schema_engine_bg.js"));
  const wasm = fs.readFileSync(path.join(pkgDir, "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(wasm, { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start?.();
  return bg;
}

async function adapterFactory(url) {
  if (/^postgres(ql)?:/.test(url)) {
    const { PrismaPg } = await import("@prisma/adapter-pg");
    // PrismaPg.connectToShadowDb() spreads its config with `database: shadow`, but a connectionString would win
    // over it: pass discrete fields.
    const u = new URL(url);
    const cfg = {
      host: u.hostname,
      port: Number(u.port || 5432),
      user: decodeURIComponent(u.username),
      password: decodeURIComponent(u.password),
      database: u.pathname.slice(1),
    };
    const factory = new PrismaPg(cfg);
    // Its shadow dispose() drops the database before closing the shadow pool ("being accessed by other users").
    factory.connectToShadowDb = async () => {
      const admin = await new PrismaPg(cfg).connect();
      const db = `prisma_shadow_${process.pid}_${Date.now()}`;
      await admin.executeScript(`CREATE DATABASE "${db}"`);
      const shadow = await new PrismaPg({ ...cfg, database: db }).connect();
      const dispose = shadow.dispose.bind(shadow);
      shadow.dispose = async () => {
        await dispose();
        await admin.executeScript(`DROP DATABASE "${db}"`);
        await admin.dispose();
      };
      return shadow;
    };
    return { factory, provider: "postgresql" };
  }
  const file = url.replace(/^file:/, "");
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const { PrismaBetterSqlite3 } = await import("@prisma/adapter-better-sqlite3");
  const factory = new PrismaBetterSqlite3({ url });
  // The engine replays each migration on the shadow DB with executeRaw(<whole script>), which better-sqlite3
  // rejects ("more than one statement"): route argument-less raw SQL there through executeScript.
  const connectShadow = factory.connectToShadowDb.bind(factory);
  factory.connectToShadowDb = async () => {
    const shadow = await connectShadow();
    const raw = shadow.executeRaw.bind(shadow);
    shadow.executeRaw = async (q) => {
      if (q.args?.length) return raw(q);
      await shadow.executeScript(q.sql);
      return 0;
    };
    return shadow;
  };
  return { factory, provider: "sqlite" };
}

function listMigrations(migDir) {
  fs.mkdirSync(migDir, { recursive: true });
  const lock = path.join(migDir, "migration_lock.toml");
  const dirs = fs
    .readdirSync(migDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  return {
    baseDir: migDir,
    lockfile: { path: "migration_lock.toml", content: fs.existsSync(lock) ? fs.readFileSync(lock, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((d) => {
      const f = path.join(migDir, d, "migration.sql");
      return {
        path: d,
        migrationFile: {
          path: "migration.sql",
          content: fs.existsSync(f)
            ? { tag: "ok", value: fs.readFileSync(f, "utf8") }
            : { tag: "error", value: "missing" },
        },
      };
    }),
  };
}

/** Opens the schema engine for a database URL. */
export async function openEngine(url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL) {
  const bg = await loadEngineModule();
  const { factory, provider } = await adapterFactory(url);
  const schemaPath = provider === "postgresql" ? derivePostgresSchema() : path.join(root, "prisma/schema.prisma");
  const schema = { files: [{ path: schemaPath, content: fs.readFileSync(schemaPath, "utf8") }] };
  const log = (m) => process.env.DEBUG_SE && console.error("[schema-engine]", m);
  const engine = await bg.SchemaEngine.new(
    { datamodels: [[schemaPath, schema.files[0].content]] },
    log,
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  const migDir = path.join(root, "prisma/migrations", provider);
  return { engine, provider, schema, migDir };
}

// Tables the migrations create by hand that Prisma's schema cannot describe (SQLite's FTS5 indexes of knowledge lines
// and of messages, and their shadow tables): a new migration must not drop them.
const FTS_TABLES = ["KnowledgeLineFts", "KnowledgeChunkFts", "MessageFts"].flatMap((t) => [
  t,
  `${t}_config`,
  `${t}_data`,
  `${t}_docsize`,
  `${t}_idx`,
]);
const filters = { externalTables: FTS_TABLES, externalEnums: [] };

/** Applies every pending migration; returns the names applied. */
export async function deploy(url) {
  const { engine, migDir } = await openEngine(url);
  const result = await engine.applyMigrations({ migrationsList: listMigrations(migDir), filters });
  return result.appliedMigrationNames;
}

async function newMigration(name, fromSchemaFile) {
  const { engine, provider, schema, migDir } = await openEngine();
  const list = listMigrations(migDir);
  let from = { tag: "empty" };
  if (fromSchemaFile) {
    from = {
      tag: "schemaDatamodel",
      files: [{ path: fromSchemaFile, content: fs.readFileSync(fromSchemaFile, "utf8") }],
    };
  } else if (list.migrationDirectories.length) {
    if (provider === "postgresql") throw new Error("PostgreSQL: pass --from <the previous schema file>");
    from = { tag: "migrations", ...list };
  }
  // PostgreSQL's diff refuses unqualified external names, and has no such tables.
  const diffFilters = provider === "sqlite" ? filters : { externalTables: [], externalEnums: [] };
  const diff = await engine.diff({
    from,
    to: { tag: "schemaDatamodel", ...schema },
    script: true,
    exitCode: null,
    filters: diffFilters,
  });
  const sql = (diff.stdout ?? "").trim();
  if (!sql || sql.startsWith("-- This is an empty migration")) return console.log(`${provider}: no schema changes`);
  const dir = path.join(migDir, `${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}_${name}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "migration.sql"), `${sql}\n`);
  const lock = path.join(migDir, "migration_lock.toml");
  if (!fs.existsSync(lock)) {
    fs.writeFileSync(
      lock,
      `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${provider}"\n`,
    );
  }
  console.log(`${provider}: created ${path.relative(root, dir)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [cmd = "deploy", ...rest] = process.argv.slice(2);
  if (cmd === "deploy") {
    const applied = await deploy();
    // Exits once said: PostgreSQL's connection pool would otherwise hold the process open for its idle timeout (10 s)
    // after the work is done, and `npm start` and every test database wait for this process.
    process.stdout.write(
      `${applied.length ? `database migrated: ${applied.join(", ")}` : "database up to date"}\n`,
      () => process.exit(0),
    );
  } else if (cmd === "new") {
    const fromIdx = rest.indexOf("--from");
    await newMigration(rest[0] ?? "migration", fromIdx >= 0 ? path.resolve(rest[fromIdx + 1]) : undefined);
  } else if (cmd === "diff") {
    const { engine, schema } = await openEngine();
    const r = await engine.diff({
      from: { tag: "empty" },
      to: { tag: "schemaDatamodel", ...schema },
      script: true,
      exitCode: null,
      filters,
    });
    process.stdout.write(r.stdout ?? "");
  } else {
    console.error(`unknown command ${cmd}: use deploy | new <name> | diff`);
    process.exit(2);
  }
}
