// Records the UI message streams a built Hintline sends (the demo model, a fresh SQLite database, server-everything
// for MCP) into lib/stores/ui-streams.recorded.json: the chunk sequences lib/stores/ui-message-stream.test.ts feeds to
// the AI SDK's reader and to the browser's own. Run after `npx next build` (HINTLINE_DIST_DIR picks another build):
//   npx tsx scripts/record-ui-streams.ts
import fs from "node:fs";
import path from "node:path";
import { startApp, stopAll } from "../bench/servers.ts";
import { startEverythingHttp } from "../tests/support/mcp-reference.ts";

type Chunk = { type: string; [key: string]: unknown };
type Recording = { name: string; chunks: Chunk[] };

const OUT = path.resolve(import.meta.dirname, "../lib/stores/ui-streams.recorded.json");
let url = "";
let workspaceId = "";

/** Reads an SSE body chunk by chunk, calling `onChunk` as each arrives (to answer an approval mid-stream). */
async function readStream(response: Response, onChunk?: (chunk: Chunk) => Promise<void>): Promise<Chunk[]> {
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const chunks: Chunk[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const bytes of response.body) {
    buffer += decoder.decode(bytes, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      if (!data || data === "[DONE]") continue;
      const chunk = JSON.parse(data) as Chunk;
      chunks.push(chunk);
      await onChunk?.(chunk);
    }
  }
  return chunks;
}

const post = (route: string, body: unknown, signal?: AbortSignal) =>
  fetch(`${url}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });

let counter = 0;
/** Sends a message of the person's; the same `messageId` again is a regenerate (as the browser sends it). */
function send(id: string, text: string, extra: Record<string, unknown> = {}, messageId = `rec-m-${++counter}`) {
  return post("/api/chat", {
    id,
    message: { id: messageId, role: "user", parts: [{ type: "text", text }] },
    timezone: "Europe/Berlin",
    workspaceId,
    ...extra,
  });
}

async function approvingEach(id: string, approved: boolean) {
  return async (chunk: Chunk) => {
    if (chunk.type !== "tool-approval-request") return;
    const answer = await post(`/api/conversations/${id}/approvals/${chunk.toolCallId as string}`, {
      approved,
      ...(approved ? {} : { reason: "Not now, thanks" }),
    });
    if (!answer.ok) throw new Error(`approval: HTTP ${answer.status} ${await answer.text()}`);
  };
}

async function record(): Promise<Recording[]> {
  const recordings: Recording[] = [];
  const keep = (name: string, chunks: Chunk[]) => recordings.push({ name, chunks });
  const id = (name: string) => `rec-${name}-${Date.now().toString(36)}`;

  const plain = id("plain");
  keep("hello", await readStream(await send(plain, "hello")));
  keep("time", await readStream(await send(plain, "what time is it?")));
  keep("regenerate", await readStream(await send(plain, "what time is it?", {}, `rec-m-${counter}`)));

  const tasks = id("tasks");
  keep("tasks", await readStream(await send(tasks, "add tasks: pack the boxes; book a van")));
  keep("task-start", await readStream(await send(tasks, "start 1")));
  keep("essay", await readStream(await send(tasks, "write 120 words about rivers")));

  keep("plan", await readStream(await send(id("plan"), "plan a blog post", { mode: "plan" })));
  keep("delegate", await readStream(await send(id("child"), "delegate: summarise the notes")));
  const background = id("background");
  keep("delegate-background", await readStream(await send(background, "delegate in the background: list the notes")));
  keep("after-background", await readStream(await send(background, "what's left?")));

  const mcp = id("mcp");
  keep(
    "mcp-approve",
    await readStream(await send(mcp, 'mcp echo {"message": "hi there"}'), await approvingEach(mcp, true)),
  );
  keep(
    "mcp-deny",
    await readStream(await send(mcp, 'mcp echo {"message": "not this"}'), await approvingEach(mcp, false)),
  );
  keep("mcp-error", await readStream(await send(mcp, 'mcp echo {"nope": 1}'), await approvingEach(mcp, true)));

  // A long reply: followed live from its first chunk by a second reader (the replay a reload resumes), stopped after
  // its first words, then continued.
  const long = id("long");
  const live = await send(long, "write 400 words about rivers");
  let stopped = false;
  const replay = fetch(`${url}/api/conversations/${long}/stream`).then((r) => readStream(r));
  keep(
    "stopped",
    await readStream(live, async (chunk) => {
      if (chunk.type === "text-delta" && !stopped) {
        stopped = true;
        await post(`/api/conversations/${long}/stop`, {});
      }
    }),
  );
  keep("resume-replay", await replay);
  keep("continue", await readStream(await post("/api/chat", { id: long, continue: true, timezone: "Europe/Berlin" })));
  return recordings;
}

async function main(): Promise<void> {
  const everything = await startEverythingHttp();
  try {
    const app = await startApp({ HINTLINE_MCP_ALLOW_PRIVATE: "1" });
    url = app.url;
    const made = await post("/api/workspaces", { name: "Recording" });
    workspaceId = ((await made.json()) as { id: string }).id;
    const added = await post(`/api/workspaces/${workspaceId}/mcp-servers`, {
      name: "everything",
      url: everything.url,
      approval: "ask",
    });
    if (added.status !== 201) throw new Error(`MCP server: HTTP ${added.status} ${await added.text()}`);
    const recordings = await record();
    fs.writeFileSync(OUT, `${JSON.stringify(recordings, null, 1)}\n`);
    const counts = recordings.map((r) => `${r.name} ${r.chunks.length}`).join(", ");
    process.stderr.write(`record-ui-streams: ${recordings.length} streams (${counts}) → ${OUT}\n`);
  } finally {
    await stopAll();
    await everything.stop();
  }
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
