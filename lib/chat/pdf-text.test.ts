// The PDF reader against hostile PDFs made here (tests/support/tiny-pdf.ts), its real worker thread started as the
// server starts it: each is refused in words, within its limits, while this thread's event loop stays free and the
// process does not grow by the gigabyte a stream inflates to.
import { describe, expect, it } from "vitest";
import {
  denseTextPdf,
  manyPagesPdf,
  textOperatorsPdf,
  tinyPdf,
  whitespaceBombPdf,
} from "../../tests/support/tiny-pdf.ts";
import { ApiError } from "../api/errors.ts";
import { MAX_PDF_PAGES, pdfWorkerSlots, readPdfText } from "./pdf-text.ts";

const MiB = 1024 * 1024;

/** Runs `work` while watching this thread: the longest gap between 5 ms timer ticks, and the most RSS grew. */
async function watched<T>(
  work: () => Promise<T>,
): Promise<{ result: T | ApiError; longestGap: number; rssGrowth: number }> {
  const rssBefore = process.memoryUsage.rss();
  let last = performance.now();
  let longestGap = 0;
  let rssPeak = rssBefore;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  }, 5);
  try {
    const result = await work().catch((error: unknown) => {
      if (error instanceof ApiError) return error;
      throw error;
    });
    return { result, longestGap: Math.max(longestGap, performance.now() - last), rssGrowth: rssPeak - rssBefore };
  } finally {
    clearInterval(ticker);
  }
}

function refusal(result: unknown): { status: number; message: string } {
  expect(result).toBeInstanceOf(ApiError);
  const error = result as ApiError;
  return { status: error.status, message: error.message };
}

describe("reading a PDF's text in a worker", { timeout: 60_000 }, () => {
  it("reads the text page by page, a page without text as empty, NUL characters taken out", async () => {
    const pdf = tinyPdf(["Quarterly (report) page one", null, "Third \u0000page"]);
    expect(await readPdfText(pdf, "report.pdf")).toEqual({ pages: ["Quarterly (report) page one", "", "Third page"] });
    // Twice at once: both are answered (one waits for the other where one worker is all there is).
    const both = await Promise.all([readPdfText(tinyPdf(["one"]), "a.pdf"), readPdfText(tinyPdf(["two"]), "b.pdf")]);
    expect(both).toEqual([{ pages: ["one"] }, { pages: ["two"] }]);
  });

  it("refuses a PDF of more pages than the cap by its page count, before reading any page", async () => {
    const { result, longestGap } = await watched(() => readPdfText(manyPagesPdf(20_000), "huge.pdf"));
    expect(refusal(result)).toEqual({
      status: 400,
      message: `huge.pdf has 20,000 pages, over the ${MAX_PDF_PAGES.toLocaleString("en-US")} a PDF may have; it was not stored.`,
    });
    expect(longestGap).toBeLessThan(1_000);
  });

  it("stops reading once the text passes what an attachment may hold, naming the page", async () => {
    const { result } = await watched(() => readPdfText(denseTextPdf(6, 100_000), "long.pdf"));
    expect(refusal(result)).toEqual({
      status: 400,
      message:
        "long.pdf holds over the 400,000 characters of text an attached text may hold (reading stopped at page 5 of 6).",
    });
  });

  it("ends a stream that inflates to a gigabyte of whitespace at the memory limit; the process never holds it", async () => {
    const { result, longestGap, rssGrowth } = await watched(() =>
      readPdfText(whitespaceBombPdf(1024 * MiB), "bomb.pdf"),
    );
    expect(refusal(result)).toEqual({
      status: 400,
      message:
        "bomb.pdf: reading the PDF took over 256 MiB of memory (its content inflates far beyond the file); it was not stored.",
    });
    expect(longestGap).toBeLessThan(1_000);
    expect(rssGrowth).toBeLessThan(768 * MiB);
  });

  it("ends a page of 30 million text operators within the limits, the event loop free meanwhile", async () => {
    const { result, longestGap } = await watched(() => readPdfText(textOperatorsPdf(30_000_000), "operators.pdf"));
    expect(refusal(result).message).toMatch(/^operators\.pdf: reading the PDF took over (256 MiB of memory|20 s)/);
    expect(longestGap).toBeLessThan(1_000);
  });

  it("ends a read at the time limit, and tells a PDF that waited that long for a worker that the server is busy", async () => {
    // 20,000 pages with the page cap lifted take half a minute; the limit here is 1 s.
    const pdf = manyPagesPdf(20_000);
    const slow = () => readPdfText(pdf, "slow.pdf", { maxPages: 100_000, timeoutMs: 1_000 });
    const reads = Array.from({ length: pdfWorkerSlots() + 1 }, () => watched(slow));
    const results = await Promise.all(reads);
    const messages = results.map(({ result }) => refusal(result));
    expect(messages.slice(0, -1)).toEqual(
      messages
        .slice(0, -1)
        .map(() => ({ status: 400, message: "slow.pdf: reading the PDF took over 1 s; it was not stored." })),
    );
    expect(messages.at(-1)).toEqual({
      status: 503,
      message: "slow.pdf: the server is busy reading other PDFs; try again in a moment.",
    });
    for (const { longestGap } of results) expect(longestGap).toBeLessThan(1_000);
    // The workers ended are replaced: the next PDF is read.
    expect(await readPdfText(tinyPdf(["after"]), "after.pdf")).toEqual({ pages: ["after"] });
  });
});
