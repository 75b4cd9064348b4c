// Connection keys at rest: AES-256-GCM under a key derived from HINTLINE_SECRET, or, without it, under a random key
// generated once into the data directory (the SQLite file's folder, else ./data) as `connection-secret`, readable by
// the server's user alone (0600). Instances sharing one PostgreSQL need the same key: set HINTLINE_SECRET on each.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { databaseUrl, isPostgresUrl } from "../db/client.ts";

const FORMAT = "v1";
export const SECRET_FILE = "connection-secret";

/** The folder of the SQLite file DATABASE_URL names; ./data on PostgreSQL. */
export function dataDirectory(url = databaseUrl()): string {
  if (isPostgresUrl(url)) return path.resolve("data");
  return path.dirname(path.resolve(url.replace(/^file:/, "").replace(/\?.*$/, "")));
}

/**
 * The generated key in `dir`, made the first time a key is sealed (two processes racing: the first file written wins,
 * both read it); undefined when there is none and `create` is false (opening makes no file: nothing was sealed with it).
 */
function generatedKey(dir: string, create: boolean): Buffer | undefined {
  const file = path.join(dir, SECRET_FILE);
  try {
    return Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64url");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (!create) return undefined;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString("base64url")}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64url");
}

let cached: { source: string; key: Buffer } | undefined;

function secretKey(create: boolean): Buffer | undefined {
  const configured = process.env.HINTLINE_SECRET?.trim();
  const source = configured ? `env:${configured}` : `file:${dataDirectory()}`;
  if (cached?.source !== source) {
    const key = configured
      ? createHash("sha256").update(`hintline connection keys\0${configured}`).digest()
      : generatedKey(dataDirectory(), create);
    if (!key) return undefined;
    if (key.length !== 32) throw new Error(`${SECRET_FILE} in the data directory does not hold a 32-byte key`);
    cached = { source, key };
  }
  return cached.key;
}

/** `plain` encrypted for storage: "v1:<iv>:<tag>:<ciphertext>", base64url. */
export function sealSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secretKey(true)!, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(":");
}

/** The stored value decrypted, or undefined when this server's key cannot open it (another secret, or tampered). */
export function openSecret(sealed: string): string | undefined {
  const [format, iv, tag, body] = sealed.split(":");
  if (format !== FORMAT || !iv || !tag || body === undefined) return undefined;
  const key = secretKey(false);
  if (!key) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
