// The heavy inputs of `npm run bench -- --only=stall` (bench/stall-bench.ts runs them; BENCH_STALL_ONLY=inputs runs only
// these): hostile PDFs sent as chat attachments, large imports, and the turns of a conversation holding three 8 MiB
// images. Each is one request while GET /api/model is polled, as the branch cases are: took (the whole response read),
// the longest poll wait and the server's own longest event-loop delay.
import {
  dataUrl,
  manyPagesPdf,
  paddedPdf,
  textOperatorsPdf,
  tinyPdf,
  whitespaceBombPdf,
} from "../tests/support/tiny-pdf.ts";

const MiB = 1024 * 1024;

export type Timed = { took: number; longest: number; lag: number; status: number | "timeout" };
type Fake = { setReply: (text: string) => Promise<void> };

function json(body: unknown): RequestInit {
  return { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}

const file = (mediaType: string, bytes: Buffer, filename: string) => ({
  type: "file",
  mediaType,
  url: dataUrl(mediaType, bytes),
  filename,
});
const message = (id: string, text: string, files: object[] = []) => ({
  id,
  role: "user",
  parts: [{ type: "text", text }, ...files],
});

/** An 8 MiB PNG as far as the server checks one (its signature, then zeros). */
function bigPng(): Buffer {
  const png = Buffer.alloc(8 * MiB);
  Buffer.from("89504e470d0a1a0a", "hex").copy(png);
  return png;
}

/** An export of `count` messages of about `chars` characters each, alternating person and reply. */
function exportOf(id: string, count: number, chars: number): string {
  const messages = Array.from({ length: count }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 ? "assistant" : "user",
    parts: [
      {
        type: "text",
        text: `${i} ${"a sentence of ordinary length about the work at hand ".repeat(Math.ceil(chars / 54)).slice(0, chars)}`,
      },
    ],
  }));
  return JSON.stringify({ version: 1, conversation: { id, title: "Imported", messages } });
}

export async function inputCases(
  url: string,
  fake: Fake,
  timed: (request: () => Promise<Response>) => Promise<Timed>,
): Promise<void> {
  const row = (name: string, { took, longest, lag, status }: Timed) =>
    console.log(
      `| ${name} (HTTP ${status}) | ${(took / 1000).toFixed(2)} s | ${longest.toFixed(0)} ms | ${lag.toFixed(0)} ms |`,
    );
  const chat = (body: object) => () => fetch(`${url}/api/chat`, json(body));
  // Warm-up: each route's first request loads its code.
  await (
    await fetch(
      `${url}/api/chat`,
      json({
        id: "warm-pdf",
        message: message("w1", "Read.", [file("application/pdf", tinyPdf(["warm"]), "warm.pdf")]),
      }),
    )
  ).text();
  await (await fetch(`${url}/api/conversations/import`, { ...json({}), body: exportOf("warm-import", 2, 100) })).text();

  console.log(
    "\n| heavy input | took | longest poll wait | server's longest event-loop delay |\n| --- | --- | --- | --- |",
  );
  const pdfs: Array<[string, Buffer]> = [
    ["PDF of 20,000 pages", manyPagesPdf(20_000)],
    ["PDF of 30 M text operators", textOperatorsPdf(30_000_000)],
    ["PDF inflating to 1 GiB of whitespace", whitespaceBombPdf(1024 * MiB)],
    ["PDF of 8 MiB, 1 page (read and stored)", paddedPdf(["An ordinary page."], 8 * MiB)],
  ];
  for (const [i, [name, bytes]] of pdfs.entries()) {
    const size = `${(bytes.length / MiB).toFixed(1)} MiB`;
    row(
      `${name} (${size}), attached`,
      await timed(
        chat({ id: `pdf-${i}`, message: message(`p${i}`, "Read this.", [file("application/pdf", bytes, `${i}.pdf`)]) }),
      ),
    );
  }

  const imports: Array<[string, string]> = [
    ["import of 116 messages of 94,000 characters", exportOf("import-large", 116, 94_000)],
    ["import of 19,998 messages", exportOf("import-many", 19_998, 110)],
  ];
  for (const [name, body] of imports) {
    const size = `${(Buffer.byteLength(body) / MiB).toFixed(1)} MiB`;
    row(`${name} (${size})`, await timed(() => fetch(`${url}/api/conversations/import`, { ...json({}), body })));
  }

  // A conversation holding three 8 MiB images: the turn that sends them, then turns that say a few words each.
  const png = bigPng();
  const images = [1, 2, 3].map((n) => file("image/png", png, `scan-${n}.png`));
  await fake.setReply("Seen.");
  row(
    "turn 1: three 8 MiB images sent",
    await timed(chat({ id: "images", message: message("i1", "What is in these?", images) })),
  );
  for (const turn of [2, 3, 4]) {
    await fake.setReply("Seen.");
    row(
      `turn ${turn} of the conversation holding them`,
      await timed(chat({ id: "images", message: message(`i${turn}`, "And now?") })),
    );
  }
}
