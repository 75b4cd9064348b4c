// Tiny valid PDFs written by hand for tests: one page per string with a text layer (Helvetica, one line each), or
// pages with only a drawn rectangle and no text at all (what a scan looks like to a text extractor). And hostile ones,
// small on the wire and ruinous to read: thousands of pages, millions of text operators, a stream that inflates to
// gigabytes.
import zlib from "node:zlib";

function escapePdfText(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** A page's content stream: its bytes, and `/FlateDecode` when they are zlib-compressed. */
type PageContent = { bytes: Buffer; flate?: boolean };

/**
 * A PDF of one page per content stream (Helvetica as /F1), with a correct xref table; `sharedContent`: every page
 * shows the first content stream (a page object is then ~90 bytes); `padding`: an object of that many bytes that
 * nothing refers to (so never read).
 */
function pdfOf(contents: readonly PageContent[], { sharedContent = false, padding = 0 } = {}): Buffer {
  const text = (s: string) => Buffer.from(s, "latin1");
  // 1: catalog, 2: pages, 3: font, then the content streams, then the pages.
  const streams = sharedContent ? contents.slice(0, 1) : contents;
  const firstPage = 4 + streams.length;
  const objects: Buffer[] = [
    text("<< /Type /Catalog /Pages 2 0 R >>"),
    text(
      `<< /Type /Pages /Kids [${contents.map((_, i) => `${firstPage + i} 0 R`).join(" ")}] /Count ${contents.length} /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> >>`,
    ),
    text("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
  ];
  for (const { bytes, flate } of streams) {
    objects.push(
      Buffer.concat([
        text(`<< /Length ${bytes.length}${flate ? " /Filter /FlateDecode" : ""} >>\nstream\n`),
        bytes,
        text("\nendstream"),
      ]),
    );
  }
  for (const [i] of contents.entries())
    objects.push(text(`<< /Type /Page /Parent 2 0 R /Contents ${sharedContent ? 4 : 4 + i} 0 R >>`));
  if (padding > 0)
    objects.push(
      Buffer.concat([text(`<< /Length ${padding} >>\nstream\n`), Buffer.alloc(padding, 0x25), text("\nendstream")]),
    );
  const chunks: Buffer[] = [text("%PDF-1.4\n")];
  let size = chunks[0]!.length;
  let xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  objects.forEach((object, i) => {
    xref += `${String(size).padStart(10, "0")} 00000 n \n`;
    const chunk = Buffer.concat([text(`${i + 1} 0 obj\n`), object, text("\nendobj\n")]);
    chunks.push(chunk);
    size += chunk.length;
  });
  chunks.push(text(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`));
  return Buffer.concat(chunks);
}

/** A PDF whose pages show `pages[i]` as text; `null` for a page that has only a drawing (no text layer). */
export function tinyPdf(pages: Array<string | null>): Buffer {
  return pdfOf(pages.map(pageContent));
}

function pageContent(page: string | null): PageContent {
  return {
    bytes: Buffer.from(
      page === null ? "0 0 1 rg 72 72 200 200 re f" : `BT /F1 10 Tf 36 720 Td (${escapePdfText(page)}) Tj ET`,
      "latin1",
    ),
  };
}

/** A PDF as tinyPdf makes it, padded to exactly `bytes` bytes by an object nothing refers to. */
export function paddedPdf(pages: Array<string | null>, bytes: number): Buffer {
  const contents = pages.map(pageContent);
  let padding = 1;
  for (let tries = 0; tries < 4; tries++) {
    const pdf = pdfOf(contents, { padding });
    if (pdf.length === bytes) return pdf;
    padding += bytes - pdf.length;
  }
  throw new Error(`no padding makes the PDF exactly ${bytes} bytes`);
}

/** `pages` pages of `chars` characters each, in lines of 500 in a 1-point font (pdf.js drops text off the page). */
export function denseTextPdf(pages: number, chars: number): Buffer {
  const lines = Array.from(
    { length: Math.ceil(chars / 500) },
    (_, i) => `(${"word ".repeat(100).slice(0, Math.min(500, chars - i * 500))}) Tj T*`,
  );
  const page = { bytes: Buffer.from(`BT /F1 1 Tf 1 TL 10 780 Td ${lines.join(" ")} ET`, "latin1") };
  return pdfOf(
    Array.from({ length: pages }, () => page),
    { sharedContent: true },
  );
}

/** `pages` pages of one short line each, all showing the same content stream (20,000 pages are about 1.9 MB). */
export function manyPagesPdf(pages: number): Buffer {
  return pdfOf(
    Array.from({ length: pages }, () => ({ bytes: Buffer.from("BT /F1 10 Tf 36 720 Td (A page.) Tj ET", "latin1") })),
    { sharedContent: true },
  );
}

const ADLER_BASE = 65521;

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % ADLER_BASE;
    b = (b + a) % ADLER_BASE;
  }
  return ((b << 16) | a) >>> 0;
}

/** The Adler-32 of two texts joined, from theirs (zlib's adler32_combine). */
function adler32Combine(first: number, second: number, secondLength: number): number {
  const rem = secondLength % ADLER_BASE;
  let sum1 = first & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (second & 0xffff) + ADLER_BASE - 1;
  sum2 += ((first >>> 16) & 0xffff) + ((second >>> 16) & 0xffff) + ADLER_BASE - rem;
  sum1 %= ADLER_BASE;
  sum2 %= ADLER_BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}

/**
 * A zlib stream of `unit` repeated `copies` times, made without deflating the whole: `unit` deflated once as a
 * non-final block that refers only to itself, repeated, then a final empty block and the Adler-32 of the whole.
 */
function repeatedDeflate(unit: Buffer, copies: number): Buffer {
  const block = zlib.deflateRawSync(unit, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const one = adler32(unit);
  // The checksum of `copies` units, by doubling: ~log2(copies) combinations.
  let checksum = 1;
  let power = one;
  let powerLength = unit.length;
  for (let n = copies; n > 0; n = Math.floor(n / 2)) {
    if (n % 2) {
      checksum = adler32Combine(checksum, power, powerLength);
    }
    power = adler32Combine(power, power, powerLength);
    powerLength *= 2;
  }
  const tail = Buffer.alloc(6);
  tail.writeUInt16BE(0x0300, 0);
  tail.writeUInt32BE(checksum, 2);
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: copies }, () => block), tail]);
}

/** One page whose compressed content stream holds about `operators` text-showing operators (30 million: ~300 KB). */
export function textOperatorsPdf(operators: number): Buffer {
  const unit = Buffer.from(`BT /F1 1 Tf 0 0 Td ${"(a) Tj ".repeat(10_000)}ET\n`, "latin1");
  return pdfOf([{ bytes: repeatedDeflate(unit, Math.ceil(operators / 10_000)), flate: true }]);
}

/** One page whose content stream inflates to `bytes` spaces (in 64 KiB steps): about 1.3 MB per GiB. */
export function whitespaceBombPdf(bytes: number): Buffer {
  return pdfOf([
    { bytes: repeatedDeflate(Buffer.alloc(64 * 1024, 0x20), Math.ceil(bytes / (64 * 1024))), flate: true },
  ]);
}

/** A data URL of `bytes` as `mediaType`. */
export function dataUrl(mediaType: string, bytes: Buffer | string): string {
  return `data:${mediaType};base64,${Buffer.from(bytes).toString("base64")}`;
}
