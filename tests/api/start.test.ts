// `npm start` (scripts/start.mjs) on the network (issue #24): without HINTLINE_AUTH_TOKEN it listens on loopback only,
// and it refuses an address open to the network with a clear message and a non-zero exit, before touching anything.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildIsStale } from "../../scripts/start.mjs";
import { freePort } from "../support/app-server.ts";

const root = path.resolve(import.meta.dirname, "../..");
const start = path.join(root, "scripts/start.mjs");

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...extra };
  for (const key of [
    "HOST",
    "HINTLINE_AUTH_TOKEN",
    "HINTLINE_ALLOW_OPEN",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "HINTLINE_MODEL",
  ]) {
    if (!(key in extra)) delete env[key];
  }
  return env;
}

/** Whether a TCP connection to host:port is accepted. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(2_000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** This machine's own addresses other than loopback (IPv4), where a server open to the network would answer. */
const networkAddresses = Object.values(os.networkInterfaces())
  .flat()
  .filter((a) => a && a.family === "IPv4" && !a.internal)
  .map((a) => a!.address);

describe("npm start", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-start-"));
  let child: ChildProcess | undefined;

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child!.once("exit", resolve));
    }
  });

  it("refuses to listen on every interface without a token: a clear message, exit 1, no database made", () => {
    for (const host of ["0.0.0.0", "::"]) {
      const dbFile = path.join(dir, `refused-${host === "::" ? "v6" : "v4"}.db`);
      const result = spawnSync(process.execPath, [start], {
        cwd: root,
        env: cleanEnv({ HOST: host, PORT: "1", DATABASE_URL: `file:${dbFile}` }),
        encoding: "utf8",
        timeout: 30_000,
      });
      expect({ host, status: result.status }).toEqual({ host, status: 1 });
      expect(result.stderr).toContain(`refusing to listen on ${host} without an access token`);
      expect(result.stderr).toMatch(/HINTLINE_AUTH_TOKEN.*HINTLINE_ALLOW_OPEN=1/s);
      expect(fs.existsSync(dbFile)).toBe(false);
    }
  });

  it("listens on 127.0.0.1 by default, not on the machine's network addresses", async () => {
    // npm start would rebuild a stale build, under the other test files' servers: build first (npm test does).
    expect(buildIsStale(), "the build is older than the sources: run `npx next build` first").toBe(false);
    const port = await freePort();
    let output = "";
    child = spawn(process.execPath, [start], {
      cwd: root,
      env: cleanEnv({ PORT: String(port), DATABASE_URL: `file:${path.join(dir, "open.db")}` }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    const deadline = Date.now() + 60_000;
    while (!(await connects("127.0.0.1", port))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not listen:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await fetch(`http://127.0.0.1:${port}/api/model`)).status).toBe(200);
    expect(output).toContain(`listening on http://127.0.0.1:${port}`);
    for (const address of networkAddresses)
      expect({ address, connects: await connects(address, port) }).toEqual({ address, connects: false });
  }, 90_000);
});
