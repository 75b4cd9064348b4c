// Large inputs that once stalled or broke the server, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: 1 MiB knowledge
// files of any shape (a million empty lines, a 39,000-line CSV, one long line) are stored in space proportional to
// their size while another client's requests keep being answered, and read back whole; hostile PDFs (20,000 pages,
// 30 million text operators, a stream inflating to a gigabyte) are refused in words as an attachment, a knowledge file
// and in an import while another client never waits a second; a chat message at exactly its documented maximum
// (4 attachments of 8 MiB) is taken and one byte more is a 413 naming the limit. How long a request waits meanwhile is
// measured by `npm run bench -- --only=stall`; the bound here only tells seconds from milliseconds.
import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxChatBodyBytes } from "../../lib/api/body-limits.mjs";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { dataUrl, manyPagesPdf, paddedPdf, textOperatorsPdf, whitespaceBombPdf } from "../support/tiny-pdf.ts";
import { type ApiMessage, databaseKinds, expectApiError, jsonRequest } from "./helpers.ts";

const kinds = databaseKinds("uploads");
const MiB = 1024 * 1024;

/** The bytes the database takes: the SQLite file and its WAL, or PostgreSQL's pg_database_size. */
async function databaseBytes(databaseUrl: string): Promise<number> {
  if (databaseUrl.startsWith("file:")) {
    const file = databaseUrl.slice(5);
    return [file, `${file}-wal`].reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ size: string }>("SELECT pg_database_size(current_database()) AS size");
    return Number(rows[0]!.size);
  } finally {
    await client.end();
  }
}

/** Requests `url` back to back until `stop` resolves; the statuses it got and the longest it waited for one (ms). */
async function pollWhile(url: string, stop: Promise<unknown>): Promise<{ statuses: number[]; longest: number }> {
  let done = false;
  void stop.finally(() => (done = true));
  const statuses: number[] = [];
  let longest = 0;
  while (!done) {
    const start = performance.now();
    statuses.push(
      await fetch(url).then(
        (r) => r.status,
        () => 0,
      ),
    );
    longest = Math.max(longest, performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { statuses, longest };
}

const csv = (() => {
  const rows = ["id,name,city,amount"];
  let size = rows[0]!.length;
  for (let i = 1; size < 1_000_000; i++) {
    const row = `${i},customer ${i % 977},${["Berlin", "Lagos", "Lima", "Osaka"][i % 4]},${(i * 37) % 10_000}`;
    rows.push(row);
    size += row.length + 1;
  }
  rows[31_337] = "31337,zebra holdings,Quito,42";
  return rows.join("\n");
})();

describe.each(kinds)("$name: large knowledge uploads", ({ databaseUrl }) => {
  let server: AppServer;
  const api = (path: string) => `${server.url}/api${path}`;
  const put = (path: string, body: string) =>
    fetch(api(`/workspaces/default/knowledge/${path}`), {
      method: "PUT",
      headers: { "content-type": "text/plain" },
      body,
    });

  beforeAll(async () => {
    server = await startAppServer({ databaseUrl: await databaseUrl() });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("stores 1 MiB files of any shape in space proportional to their size, answering other requests meanwhile", {
    timeout: 240_000,
  }, async () => {
    const files: Array<[string, string]> = [
      ["newlines.txt", "\n".repeat(MiB)],
      ["crlf.txt", "\r\n".repeat(MiB / 2)],
      ["data/customers.csv", csv],
      ["one-line.txt", "word ".repeat(MiB / 5)],
    ];
    const before = await databaseBytes(server.databaseUrl);
    const uploads = (async () => {
      const statuses: number[] = [];
      for (const [path, body] of files) statuses.push((await put(path, body)).status);
      return statuses;
    })();
    const { statuses: polls } = await pollWhile(api("/model"), uploads);
    expect(await uploads).toEqual([201, 201, 201, 201]);
    // Every poll made while the uploads ran was answered (none failed or hung until the uploads ended).
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((s) => s === 200)).toBe(true);
    const uploaded = files.reduce((sum, [, body]) => sum + Buffer.byteLength(body), 0);
    const growth = (await databaseBytes(server.databaseUrl)) - before;
    // The content once, its search index and the database's own overhead: a small multiple of the files' size (a row
    // per line made it ~160 times on PostgreSQL).
    expect(growth).toBeLessThan(6 * uploaded + 8 * MiB);
    for (const [path, body] of files) {
      const back = await fetch(api(`/workspaces/default/knowledge/${path}`));
      expect(back.status).toBe(200);
      expect(await back.text()).toBe(body);
    }
    const list = (await (await fetch(api("/workspaces/default/knowledge"))).json()) as Array<{
      path: string;
      bytes: number;
    }>;
    expect(list.find((f) => f.path === "newlines.txt")?.bytes).toBe(MiB);
  });

  it("refuses hostile PDFs in words as an attachment, a knowledge file and in an import, answering others within a second", {
    timeout: 240_000,
  }, async () => {
    const pdf = (bytes: Buffer, filename: string) => ({
      type: "file",
      mediaType: "application/pdf",
      url: dataUrl("application/pdf", bytes),
      filename,
    });
    const chat = (id: string, file: object) =>
      fetch(
        api("/chat"),
        jsonRequest("POST", {
          id,
          message: { id: `${id}-m`, role: "user", parts: [{ type: "text", text: "Read this." }, file] },
        }),
      );
    const hostile = [
      {
        name: "pages.pdf",
        bytes: manyPagesPdf(20_000),
        refusal: /"pages\.pdf"\): the attachment has 20,000 pages, over the 2,000 a PDF may have/,
      },
      {
        name: "operators.pdf",
        bytes: textOperatorsPdf(30_000_000),
        refusal: /"operators\.pdf"\): the attachment: reading the PDF took over (256 MiB of memory|20 s)/,
      },
      {
        name: "bomb.pdf",
        bytes: whitespaceBombPdf(1024 * MiB),
        refusal: /"bomb\.pdf"\): the attachment: reading the PDF took over 256 MiB of memory/,
      },
    ];
    const work = (async () => {
      const refusals: string[] = [];
      for (const [i, { name, bytes }] of hostile.entries())
        refusals.push(await expectApiError(await chat(`hostile-${i}`, pdf(bytes, name)), 400, "bad_request"));
      const knowledge = await fetch(api("/workspaces/default/knowledge/bomb.pdf"), {
        method: "PUT",
        headers: { "content-type": "application/pdf" },
        body: new Uint8Array(hostile[2]!.bytes),
      });
      refusals.push(await expectApiError(knowledge, 400, "bad_request"));
      const messages = [
        { id: "i0", role: "user", parts: [{ type: "text", text: "Imported." }, pdf(hostile[0]!.bytes, "pages.pdf")] },
      ];
      refusals.push(
        await expectApiError(
          await fetch(
            api("/conversations/import"),
            jsonRequest("POST", { version: 1, conversation: { id: "hostile-import", messages } }),
          ),
          400,
          "bad_request",
        ),
      );
      return refusals;
    })();
    const { statuses, longest } = await pollWhile(api("/model"), work);
    const refusals = await work;
    for (const [i, { refusal }] of hostile.entries()) expect(refusals[i]).toMatch(refusal);
    expect(refusals[3]).toBe(
      "bomb.pdf: reading the PDF took over 256 MiB of memory (its content inflates far beyond the file); it was not stored.",
    );
    expect(refusals[4]).toMatch(
      /^Invalid conversation\.messages\.0\.parts\.1 \("pages\.pdf"\): the attachment has 20,000 pages/,
    );
    // Nothing was stored, and nobody waited while the PDFs were read (pdf.js on the event loop held everyone 12–55 s).
    // The bound is generous: on a loaded 2-core machine (both test suites at once) a poll was seen to wait 1.1 s for
    // the CPU alone; the figures are the stall bench's (docs/benchmarks.md).
    for (const id of ["hostile-0", "hostile-1", "hostile-2", "hostile-import"])
      expect((await fetch(api(`/conversations/${id}`))).status).toBe(404);
    expect((await fetch(api("/workspaces/default/knowledge/bomb.pdf"))).status).toBe(404);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(longest).toBeLessThan(3_000);
  });

  it("imports 19,998 messages (28 MB) in slices, answering others meanwhile; the copy is whole and searchable", {
    timeout: 240_000,
  }, async () => {
    const messages = Array.from({ length: 19_998 }, (_, i) => ({
      id: `m${i}`,
      role: i % 2 ? "assistant" : "user",
      parts: [
        {
          type: "text",
          text: `${i} ${i === 12_345 ? "quetzal " : ""}${"a sentence of ordinary length about the work at hand ".repeat(26)}`,
        },
      ],
    }));
    const body = JSON.stringify({ version: 1, conversation: { id: "big-slices", title: "Sliced", messages } });
    const work = fetch(api("/conversations/import"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const { statuses, longest } = await pollWhile(api("/model"), work);
    expect((await work).status).toBe(201);
    // Written in one transaction (and warmed in one go) they held everyone ~2 s on SQLite (3.3 s on a loaded machine)
    // and the whole 27 s import on PostgreSQL; in slices, 0.2-0.4 s (1.1 s seen on a loaded machine): what is left is
    // parsing and checking the 28 MB body. The bound tells PostgreSQL's two apart even on CI's loaded machine, where
    // a poll beside the browser suite waited over 2.5 s for the CPU alone; SQLite's figures are the stall bench's
    // (docs/benchmarks.md).
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(longest).toBeLessThan(8_000);
    const copy = (await (await fetch(api("/conversations/big-slices"))).json()) as { messages: ApiMessage[] };
    expect(copy.messages.map((m) => m.id)).toEqual(messages.map((m) => m.id));
    const found = (await (await fetch(api("/conversations?q=quetzal"))).json()) as Array<{ id: string }>;
    expect(found.map((c) => c.id)).toEqual(["big-slices"]);
  });

  it("takes a chat message at exactly its documented maximum, 4 PDFs of 8 MiB, and refuses one byte more with a 413 naming the limit", {
    timeout: 240_000,
  }, async () => {
    const files = [1, 2, 3, 4].map((n) => ({
      type: "file",
      mediaType: "application/pdf",
      url: dataUrl("application/pdf", paddedPdf([`Part ${n} of the manual`], 8 * MiB)),
      filename: `manual-${n}.pdf`,
    }));
    const bodyOf = (id: string, bytes: number) => {
      const json = JSON.stringify({
        id,
        message: { id: `${id}-m`, role: "user", parts: [{ type: "text", text: "Summarise these." }, ...files] },
      });
      // JSON allows whitespace after the value: the body is brought to exactly `bytes`.
      return json + " ".repeat(bytes - Buffer.byteLength(json));
    };
    const post = (body: string) =>
      fetch(api("/chat"), { method: "POST", headers: { "content-type": "application/json" }, body });
    const over = await post(bodyOf("at-max-over", maxChatBodyBytes() + 1));
    expect(await expectApiError(over, 413, "payload_too_large")).toBe(
      `A chat message may hold 100,000 characters of text and 4 attachments of 8.0 MB (HINTLINE_MAX_ATTACHMENTS, HINTLINE_MAX_ATTACHMENT_BYTES), at most ${maxChatBodyBytes().toLocaleString("en-US")} bytes of JSON; this body is larger.`,
    );
    expect((await fetch(api("/conversations/at-max-over"))).status).toBe(404);

    const taken = await post(bodyOf("at-max", maxChatBodyBytes()));
    // A failure prints the server's own words on why (CI once saw a 500 here whose cause was not kept).
    if (taken.status !== 200) console.error(server.logs().slice(-4_000));
    expect(taken.status).toBe(200);
    const reply = await taken.text();
    expect(reply).toContain("manual-4.pdf");
    const view = (await (await fetch(api("/conversations/at-max"))).json()) as { messages: ApiMessage[] };
    const stored = view.messages[0]!.parts as Array<{ type: string; url?: string; providerMetadata?: unknown }>;
    expect(stored.filter((p) => p.type === "file").map((p) => p.url)).toEqual(files.map((f) => f.url));
    expect(stored[4]!.providerMetadata).toEqual({ hintline: { pages: ["Part 4 of the manual"] } });
  });
});

describe("large imports", () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const post = (body: string) =>
    fetch(`${server.url}/api/conversations/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
  /**
   * POSTs `body` with node:http, keeping the answer the server may give before it has read the whole body (it refuses
   * an oversized body by its Content-Length and closes the connection, which fetch reports as a failed write).
   */
  const postEarlyAnswer = (body: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      const request = http.request(
        {
          host: hostname,
          port,
          method: "POST",
          path: "/api/conversations/import",
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (response) => {
          let text = "";
          response.on("data", (d) => (text += d));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
        },
      );
      request.on("error", (error) => setTimeout(() => reject(error), 2_000)); // a write error after the answer is expected
      request.end(body);
    });
  /** An export of a little over `bytes` bytes: person messages of about 95,000 characters, each with a short reply. */
  const exportOf = (id: string, bytes: number) => {
    const messages = Array.from({ length: Math.ceil(bytes / 94_000) }, (_, i) => [
      {
        id: `u${i}`,
        role: "user",
        parts: [{ type: "text", text: `${i} ${"lorem ipsum dolor sit amet ".repeat(3_500)}` }],
      },
      { id: `a${i}`, role: "assistant", parts: [{ type: "text", text: "Noted." }] },
    ]).flat();
    return JSON.stringify({ version: 1, conversation: { id, title: "Big", messages } });
  };

  it("accepts a 20 MB import (the documented limit is 32 MiB) and refuses one over 32 MiB as too large", {
    timeout: 240_000,
  }, async () => {
    const twenty = exportOf("big-import", 20_000_000);
    expect(Buffer.byteLength(twenty)).toBeGreaterThan(20_000_000);
    expect(Buffer.byteLength(twenty)).toBeLessThan(32 * MiB);
    const accepted = await post(twenty);
    expect({ status: accepted.status, body: (await accepted.text()).slice(0, 300) }).toMatchObject({ status: 201 });
    const opened = await fetch(`${server.url}/api/conversations/big-import`);
    expect(opened.status).toBe(200);
    expect(((await opened.json()) as { messages: unknown[] }).messages.length).toBe(
      JSON.parse(twenty).conversation.messages.length,
    );

    const over = exportOf("too-big", 33 * MiB);
    expect(Buffer.byteLength(over)).toBeGreaterThan(33 * MiB);
    const refused = await postEarlyAnswer(over);
    expect(refused.status).toBe(413);
    expect((JSON.parse(refused.body) as { error: { code: string; message: string } }).error.message).toMatch(
      /limit|large/i,
    );
    expect((await fetch(`${server.url}/api/conversations/too-big`)).status).toBe(404);
  });
});
