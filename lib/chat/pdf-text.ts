// A PDF's text, read in a worker thread (lib/chat/pdf-worker.mjs) so that no PDF holds the server's event loop: pdf.js
// on the event loop held every other request 54.7 s for a PDF of 20,000 pages and 12.5 s for one of 30 million text
// operators, and a 1 MB stream of whitespace grew the process by gigabytes. The worker checks the page count before it
// reads a page and stops once the text passes what an attachment may hold; here, a hard time limit and a memory limit
// (its V8 heap capped by resourceLimits, its heap and ArrayBuffers together watched) end it with terminate(). At most
// one or two run at once (one core is left to the server); an idle one is kept a few seconds for the next PDF.
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { MAX_ATTACHMENT_TEXT_CHARS, type PdfText } from "../agent/attachments.ts";
import { ApiError } from "../api/errors.ts";

/** The most pages a PDF may have: more is refused before any page is read. */
export const MAX_PDF_PAGES = 2_000;
const PDF_TIMEOUT_MS = 20_000;
/** The most the worker may hold: its V8 heap and its ArrayBuffers (what a FlateDecode stream inflates into). */
const PDF_MEMORY_MB = 256;
/** How often the worker's memory is looked at while it reads. */
const WATCH_MS = 20;
/** How long an idle worker is kept for the next PDF (loading pdf.js costs a new one ~200 ms of its own thread). */
const IDLE_MS = 10_000;

export type PdfLimits = { timeoutMs: number; memoryMb: number; maxPages: number; maxChars: number };
const DEFAULT_LIMITS: PdfLimits = {
  timeoutMs: PDF_TIMEOUT_MS,
  memoryMb: PDF_MEMORY_MB,
  maxPages: MAX_PDF_PAGES,
  maxChars: MAX_ATTACHMENT_TEXT_CHARS,
};

/** The worker's answer (lib/chat/pdf-worker.mjs), or why it was ended. */
type Outcome =
  | { pages: string[] }
  | { problem: "pages"; pages: number }
  | { problem: "chars"; page: number; pages: number }
  | { problem: "password" | "invalid" | "damaged" }
  | { failed: "timeout" | "memory" | "crashed" };

type Reader = { worker: Worker; idle?: ReturnType<typeof setTimeout>; limitMb: number };
type Waiter = { start: () => void; timer: ReturnType<typeof setTimeout> };

// One pool per process: Next.js gives each bundle its own copy of this module.
type Pool = { spare: Reader[]; running: number; waiting: Waiter[] };
const holder = globalThis as { __hintlinePdfReaders?: Pool };
holder.__hintlinePdfReaders ??= { spare: [], running: 0, waiting: [] };
const pool = holder.__hintlinePdfReaders;

/** Workers reading at once: one core is left to the server (two at most). */
export function pdfWorkerSlots(): number {
  return Math.max(1, Math.min(2, os.availableParallelism() - 1));
}

/** Waits for a free slot; false when none came free within `waitMs`. */
function takeSlot(waitMs: number): Promise<boolean> {
  if (pool.running < pdfWorkerSlots()) {
    pool.running++;
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    const waiter: Waiter = {
      start: () => {
        clearTimeout(waiter.timer);
        resolve(true);
      },
      timer: setTimeout(() => {
        pool.waiting.splice(pool.waiting.indexOf(waiter), 1);
        resolve(false);
      }, waitMs),
    };
    pool.waiting.push(waiter);
  });
}

/** Hands the slot to the next waiter, or frees it. */
function releaseSlot(): void {
  const next = pool.waiting.shift();
  if (next) next.start();
  else pool.running--;
}

function startReader(memoryMb: number): Reader {
  // Resolved at run time from the project (as lib/tokenizer-ranks.ts resolves its package): the file is not bundled.
  const worker = new Worker(path.join(process.cwd(), "lib/chat/pdf-worker.mjs"), {
    resourceLimits: { maxOldGenerationSizeMb: memoryMb },
  });
  return { worker, limitMb: memoryMb };
}

/** Keeps a worker that answered for the next PDF, for IDLE_MS; it does not keep the process alive. */
function keepIdle(reader: Reader): void {
  if (pool.spare.length >= pdfWorkerSlots()) return void reader.worker.terminate();
  const forget = () => {
    const at = pool.spare.indexOf(reader);
    if (at >= 0) pool.spare.splice(at, 1);
  };
  reader.worker.unref();
  reader.worker.once("exit", forget);
  reader.idle = setTimeout(() => {
    forget();
    void reader.worker.terminate();
  }, IDLE_MS);
  reader.idle.unref();
  pool.spare.push(reader);
}

/** One document on one worker, within the time and memory limits. */
function readOn(reader: Reader, bytes: Uint8Array, limits: PdfLimits): Promise<Outcome> {
  const { worker } = reader;
  worker.ref();
  return new Promise((resolve) => {
    const finish = (outcome: Outcome) => {
      clearTimeout(timer);
      clearInterval(watch);
      worker.off("message", finish).off("error", onError).off("exit", onExit);
      resolve(outcome);
    };
    const onError = (error: Error & { code?: string }) =>
      finish({ failed: error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : "crashed" });
    const onExit = () => finish({ failed: "crashed" });
    const timer = setTimeout(() => finish({ failed: "timeout" }), limits.timeoutMs);
    const limitBytes = limits.memoryMb * 1024 * 1024;
    const watch = setInterval(() => {
      worker.getHeapStatistics().then(
        (heap) => {
          if (heap.used_heap_size + heap.external_memory > limitBytes) finish({ failed: "memory" });
        },
        () => {},
      );
    }, WATCH_MS);
    worker.on("message", finish).on("error", onError).on("exit", onExit);
    // A copy, handed over: the caller's bytes stay theirs (and may share a buffer that cannot be transferred).
    const copy = new Uint8Array(bytes);
    worker.postMessage({ bytes: copy, maxPages: limits.maxPages, maxChars: limits.maxChars }, [copy.buffer]);
  });
}

async function readInWorker(bytes: Uint8Array, limits: PdfLimits): Promise<Outcome | "busy"> {
  if (!(await takeSlot(limits.timeoutMs))) return "busy";
  try {
    const spare = pool.spare.findIndex((reader) => reader.limitMb === limits.memoryMb);
    const reader = spare >= 0 ? pool.spare.splice(spare, 1)[0]! : startReader(limits.memoryMb);
    clearTimeout(reader.idle);
    reader.worker.removeAllListeners("exit");
    const outcome = await readOn(reader, bytes, limits);
    // A worker that was ended, or that pdf.js failed in some unforeseen way, is not used again.
    if ("failed" in outcome || ("problem" in outcome && outcome.problem === "damaged")) void reader.worker.terminate();
    else keepIdle(reader);
    return outcome;
  } finally {
    releaseSlot();
  }
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * The text layer of a PDF, page by page. A file that cannot be read, or is too large to read (pages, text, time,
 * memory), is a 400 in words that start with `name`; a server busy reading other PDFs for as long as one may take is a
 * 503.
 */
export async function readPdfText(bytes: Uint8Array, name: string, limits: Partial<PdfLimits> = {}): Promise<PdfText> {
  const all = { ...DEFAULT_LIMITS, ...limits };
  const outcome = await readInWorker(bytes, all);
  if (outcome === "busy")
    throw new ApiError("unavailable", `${name}: the server is busy reading other PDFs; try again in a moment.`);
  const refuse = (message: string) => new ApiError("bad_request", message);
  if ("failed" in outcome) {
    if (outcome.failed === "timeout")
      throw refuse(`${name}: reading the PDF took over ${all.timeoutMs / 1000} s; it was not stored.`);
    if (outcome.failed === "memory") {
      throw refuse(
        `${name}: reading the PDF took over ${all.memoryMb} MiB of memory (its content inflates far beyond the file); it was not stored.`,
      );
    }
    throw refuse(`${name} could not be read as a PDF (the file is damaged or not a PDF).`);
  }
  if (!("problem" in outcome)) return { pages: outcome.pages };
  switch (outcome.problem) {
    case "pages":
      throw refuse(
        `${name} has ${count(outcome.pages)} pages, over the ${count(all.maxPages)} a PDF may have; it was not stored.`,
      );
    case "chars":
      throw refuse(
        `${name} holds over the ${count(all.maxChars)} characters of text an attached text may hold (reading stopped at page ${count(outcome.page)} of ${count(outcome.pages)}).`,
      );
    case "password":
      throw refuse(`${name} is a password-protected PDF; remove the password and attach it again.`);
    default:
      throw refuse(
        `${name} could not be read as a PDF (${outcome.problem === "invalid" ? "its structure is invalid" : "the file is damaged or not a PDF"}).`,
      );
  }
}
