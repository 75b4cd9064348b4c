// Connection keys at rest (issue 46): sealed with AES-256-GCM under HINTLINE_SECRET or a key generated once into the
// data directory (owner-only), opened again only under the same key.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setConnectionEndpoints } from "../ai/providers/connections.ts";
import { scrub } from "../secrets.ts";
import { dataDirectory, openSecret, SECRET_FILE, sealSecret } from "./connection-secret.ts";
import "./connection-sync.ts";

const saved = { DATABASE_URL: process.env.DATABASE_URL, HINTLINE_SECRET: process.env.HINTLINE_SECRET };
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-secret-"));
  process.env.DATABASE_URL = `file:${path.join(dir, "data", "app.db")}`;
  delete process.env.HINTLINE_SECRET;
});
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("connection keys at rest", () => {
  it("are sealed under a key generated into the data directory, readable by the owner alone", () => {
    const sealed = sealSecret("sk-plain-key-123");
    expect(sealed).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(sealed).not.toContain("sk-plain-key-123");
    expect(sealSecret("sk-plain-key-123")).not.toBe(sealed); // a fresh IV each time
    expect(openSecret(sealed)).toBe("sk-plain-key-123");
    const file = path.join(dir, "data", SECRET_FILE);
    expect(dataDirectory()).toBe(path.join(dir, "data"));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("are opened without making a key: where none was generated, a sealed key stays unread and no file appears", () => {
    process.env.HINTLINE_SECRET = "elsewhere";
    const sealed = sealSecret("sk-key");
    delete process.env.HINTLINE_SECRET;
    expect(openSecret(sealed)).toBeUndefined();
    expect(fs.existsSync(path.join(dir, "data", SECRET_FILE))).toBe(false);
  });

  it("open only under the key they were sealed with: another HINTLINE_SECRET, or a changed byte, gives nothing", () => {
    process.env.HINTLINE_SECRET = "first secret of this server";
    const sealed = sealSecret("sk-key");
    expect(fs.existsSync(path.join(dir, "data", SECRET_FILE))).toBe(false);
    expect(openSecret(sealed)).toBe("sk-key");
    const [format, iv, tag, body] = sealed.split(":");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0]! ^= 1;
    expect(openSecret([format, iv, tag, flipped.toString("base64url")].join(":"))).toBeUndefined();
    process.env.HINTLINE_SECRET = "another secret";
    expect(openSecret(sealed)).toBeUndefined();
    expect(openSecret("not sealed")).toBeUndefined();
  });

  it("are redacted, once opened, from logs and error texts like the environment's keys", () => {
    setConnectionEndpoints([
      { id: "lab", kind: "openai-compatible", baseUrl: "http://x/v1", apiKey: "lab!key!with!odd!shape", enabled: true },
    ]);
    try {
      expect(scrub("Incorrect key provided: lab!key!with!odd!shape.")).toBe("Incorrect key provided: [redacted].");
    } finally {
      setConnectionEndpoints([]);
    }
  });
});
