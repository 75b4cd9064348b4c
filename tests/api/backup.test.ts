// `npm run backup -- <file>` while the server streams a reply: the copy opens, passes its integrity check, and holds
// every settled message exactly as the server serves it.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { providerServerForFile } from "../support/app-server.ts";
import { chat, chunkReader, getJson, postChat, stopReply } from "../support/chat-client.ts";
import type { ConversationView } from "./helpers.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const ctx = providerServerForFile();

describe("backup", () => {
  it("copies the database during a streaming reply, and the copy holds every settled message", async () => {
    for (const id of ["kept-1", "kept-2"]) {
      ctx.fake.enqueue({ text: `settled reply of ${id}` });
      expect((await chat(ctx.server.url, { conversationId: id, text: `first message of ${id}` })).response.status).toBe(
        200,
      );
    }
    ctx.fake.enqueue({ text: Array.from({ length: 3000 }, (_, i) => `w${i}`).join(" "), chunkDelayMs: 10 });
    const streaming = await postChat(ctx.server.url, { conversationId: "live", text: "write on" });
    const reader = chunkReader(streaming);
    await reader.until((c) => c.type === "text-delta");
    // A checkpoint (once a second) writes to the file while the copy is taken.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hintline-backup-")), "copy.db");
    const { stdout } = await run(process.execPath, [path.join(root, "scripts/backup.mjs"), target], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: ctx.server.databaseUrl },
    });
    expect(stdout).toMatch(/integrity ok; \d+ Conversation, \d+ Message/);
    expect((await stopReply(ctx.server.url, "live")).status).toBe(200);
    await reader.rest();

    const copy = new Database(target, { readonly: true });
    try {
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      for (const id of ["kept-1", "kept-2"]) {
        const served = (await getJson<ConversationView>(`${ctx.server.url}/api/conversations/${id}`)).body;
        const rows = copy
          .prepare('SELECT id, role, parts, status FROM "Message" WHERE conversationId = ? ORDER BY position')
          .all(id) as Array<{
          id: string;
          role: string;
          parts: string;
          status: string;
        }>;
        expect(rows.map((r) => [r.id, r.role, r.status])).toEqual(
          served.messages.map((m) => [m.id, m.role, "complete"]),
        );
        expect(rows.map((r) => JSON.parse(r.parts))).toEqual(served.messages.map((m) => m.parts));
      }
      // The reply being written is there as far as its last checkpoint.
      const live = copy
        .prepare('SELECT status FROM "Message" WHERE conversationId = ? AND role = ?')
        .get("live", "assistant") as { status: string };
      expect(live.status).toBe("streaming");
    } finally {
      copy.close();
    }
    // A second backup never overwrites the first.
    await expect(
      run(process.execPath, [path.join(root, "scripts/backup.mjs"), target], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: ctx.server.databaseUrl },
      }),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining("exists already"),
    });
  });
});
