// The HTTP benchmark's scenarios against a running server: sequential TTFT and throughput pairs (Hintline's
// /api/chat vs the bare AI SDK route), long conversations seeded through the import API, and a concurrent burst.
import { randomBytes } from "node:crypto";
import { type Memory, memoryOf, resetPeak } from "./servers.ts";
import { postJson, postStream, type StreamResult } from "./ui-stream-client.ts";

const prefix = randomBytes(3).toString("hex");
let seq = 0;
export const newId = (kind: string): string => `${kind}-${prefix}-${++seq}`;

export type Post = (text: string) => Promise<StreamResult>;

export function routes(baseUrl: string) {
  const message = (text: string) => ({ id: newId("m"), role: "user", parts: [{ type: "text", text }] });
  /** Hintline: a message to the given conversation (created on first use; a new one each call by default). */
  const hintline = (text: string, conversationId = newId("c")) =>
    postStream(`${baseUrl}/api/chat`, { id: conversationId, message: message(text), timezone: "UTC" });
  /** The bare AI SDK route: the body `useChat` sends, the whole conversation (by default only the new message). */
  const bare = (text: string, history: readonly object[] = []) =>
    postStream(`${baseUrl}/api/bench/bare`, { messages: [...history, message(text)] });
  /** The bare route answering with the stream headers Hintline's chat sends (no gzip). */
  const bareSameHeaders = (text: string) =>
    postStream(`${baseUrl}/api/bench/bare?headers=chat`, { messages: [message(text)] });
  return { hintline, bare, bareSameHeaders };
}

export type Series = { results: StreamResult[]; errors: string[] };

function record(series: Series, result: StreamResult): void {
  if (result.error) series.errors.push(result.error);
  else series.results.push(result);
}

/** `runs` rounds of one sequential request to each route after `warmup` untimed rounds; each round starts with the next route. */
export async function sequentialRounds(
  posts: readonly Post[],
  { runs, warmup, text }: { runs: number; warmup: number; text: string },
) {
  const series: Series[] = posts.map(() => ({ results: [], errors: [] }));
  for (let i = 0; i < warmup; i++) for (const post of posts) await post(text);
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < posts.length; k++) {
      const index = (i + k) % posts.length;
      record(series[index]!, await posts[index]!(text));
    }
  }
  return series;
}

/** Short stored messages (user, assistant, …), so even 2,000 of them stay well under the compression trigger. */
export function seedMessages(count: number, idPrefix: string) {
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? {
          id: `${idPrefix}-${i}`,
          role: "user",
          parts: [{ type: "text", text: `Note ${i}: the river bends east here.` }],
        }
      : {
          id: `${idPrefix}-${i}`,
          role: "assistant",
          parts: [{ type: "step-start" }, { type: "text", text: `Noted ${i}, it bends east.` }],
        },
  );
}

export type ConversationRun = { importMs: number; cold: StreamResult; warm: StreamResult[]; bare: StreamResult };

/**
 * A conversation of `size` stored messages imported through POST /api/conversations/import (untimed as TTFT), then
 * 1 + `warmTurns` turns: the first ("cold") is the first reply this server writes in it, as after an import or a
 * restart; the others ("warm") are next messages of an ongoing conversation. Then the same messages through the bare
 * route.
 */
export async function conversationRun(baseUrl: string, size: number, warmTurns: number): Promise<ConversationRun> {
  const id = newId("conv");
  const messages = seedMessages(size, id);
  const started = performance.now();
  const body = { version: 1, conversation: { id, title: `Bench ${size}`, messages } };
  const imported = await postJson<{ id: string }>(`${baseUrl}/api/conversations/import`, body);
  const importMs = performance.now() - started;
  const { hintline, bare } = routes(baseUrl);
  const cold = await hintline("What did we note about the river?", imported.id);
  const warm: StreamResult[] = [];
  for (let i = 0; i < warmTurns; i++) warm.push(await hintline("And where does it bend?", imported.id));
  // What any chat route pays for a long conversation: the bare route gets the same messages in its body.
  const bareRun = await bare("And where does it bend?", messages);
  return { importMs, cold, warm, bare: bareRun };
}

export type Burst = {
  series: Series;
  wallMs: number;
  before: Memory;
  after: Memory;
  /** VmHWM during the burst (reset just before it), or the sampled maximum when the kernel refused the reset. */
  peakKiB: number;
  peakSource: "VmHWM" | "sampled";
};

/** `count` requests started at once; the server's RSS is read from /proc/<pid>/status before, during and after. */
export async function burst(
  post: Post,
  { count, text, pid }: { count: number; text: string; pid: number },
): Promise<Burst> {
  const before = memoryOf(pid);
  const reset = resetPeak(pid);
  let sampled = before.rssKiB;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, memoryOf(pid).rssKiB);
  }, 20);
  const started = performance.now();
  const settled = await Promise.all(Array.from({ length: count }, () => post(text)));
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  const after = memoryOf(pid);
  const series: Series = { results: [], errors: [] };
  for (const result of settled) record(series, result);
  const peakKiB = reset ? after.peakKiB : Math.max(sampled, after.rssKiB);
  return { series, wallMs, before, after, peakKiB, peakSource: reset ? "VmHWM" : "sampled" };
}

/** Deterministic prose of `words` words for the fake to stream, one word per chunk. */
export function prose(words: number): string {
  const vocabulary = [
    "rivers",
    "carve",
    "valleys",
    "through",
    "erosion",
    "and",
    "deposition",
    "over",
    "long",
    "ages",
    "of",
    "rain",
  ];
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(vocabulary[(i * 7 + Math.floor(i / 12)) % vocabulary.length]!);
  return `${out.join(" ")}.`;
}
