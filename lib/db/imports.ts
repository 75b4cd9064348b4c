// Writing imported conversations (lib/chat/conversation-import.ts checks them first), all or nothing, without holding
// the event loop. On SQLite the writes run on this thread (lib/db/sqlite-direct.ts writes them in short transactions);
// on PostgreSQL in one transaction whose messages and tasks go as one JSON parameter each, which PostgreSQL takes
// apart: Prisma compiling a createMany of 20,000 messages held every other request 9.7 s.
import { databaseUrl, getDb, isPostgresUrl, LONG_TRANSACTION, sqliteDirect } from "./client.ts";
import type { ImportedRows } from "./rows.ts";

const INSERT_MESSAGES = `INSERT INTO "Message" ("conversationId", "id", "position", "role", "parts", "metadata", "status", "createdAt", "updatedAt")
  SELECT $1, m->>'id', (m->>'position')::int, m->>'role', m->'parts', m->'metadata', m->>'status', now(), now() FROM jsonb_array_elements($2::jsonb) AS m`;
const INSERT_TASKS = `INSERT INTO "Task" ("conversationId", "id", "subject", "description", "status", "owner", "blocks", "blockedBy", "metadata", "position", "createdAt", "updatedAt")
  SELECT $1, t->>'id', t->>'subject', t->>'description', t->>'status', t->>'owner', t->'blocks', t->'blockedBy', t->'metadata', (t->>'position')::int, now(), now()
  FROM jsonb_array_elements($2::jsonb) AS t`;

const SLICE_MS = 8;

/** `items` as a JSON array, each serialised on its own, with a turn of the event loop every ~8 ms. */
async function jsonArray(items: readonly unknown[]): Promise<string> {
  const parts: string[] = [];
  let sliceEnd = performance.now() + SLICE_MS;
  for (const item of items) {
    parts.push(JSON.stringify(item));
    if (performance.now() > sliceEnd) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceEnd = performance.now() + SLICE_MS;
    }
  }
  return `[${parts.join(",")}]`;
}

export async function writeImportedConversations(imports: readonly ImportedRows[]): Promise<void> {
  // On SQLite its own statements; else (or when they refuse a row) Prisma's transaction, which reports the refusal.
  if (await sqliteDirect()?.importConversations(imports)) return;
  const db = await getDb();
  const postgres = isPostgresUrl(databaseUrl());
  const json = postgres
    ? await Promise.all(
        imports.map(async (rows) => ({ messages: await jsonArray(rows.messages), tasks: await jsonArray(rows.tasks) })),
      )
    : [];
  await db.$transaction(async (tx) => {
    for (const [i, { conversation, messages, tasks, planVersions }] of imports.entries()) {
      const id = conversation.id;
      await tx.conversation.create({ data: conversation });
      if (postgres) {
        await tx.$executeRawUnsafe(INSERT_MESSAGES, id, json[i]!.messages);
        await tx.$executeRawUnsafe(INSERT_TASKS, id, json[i]!.tasks);
      } else {
        await tx.message.createMany({ data: messages.map((m) => ({ conversationId: id, ...m })) });
        await tx.task.createMany({ data: tasks.map((t) => ({ conversationId: id, ...t })) });
      }
      await tx.planVersion.createMany({ data: planVersions.map((v) => ({ conversationId: id, ...v })) });
    }
    // The largest import (20,000 messages) takes seconds on a busy PostgreSQL: more than a default transaction's.
  }, LONG_TRANSACTION);
}
