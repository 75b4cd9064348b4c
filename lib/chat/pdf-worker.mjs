// The PDF reader's worker thread (lib/chat/pdf-text.ts starts it): pdf.js runs here, never on the server's event loop.
// Plain JavaScript loaded by path, outside the Next.js bundle. One document at a time: its page count is checked
// before any page is read, its pages are read one after another (pdf.js reading them all at once held 843 MiB for
// 20,000 pages) and reading stops as soon as the text passes the limit. The time and memory limits are the parent's:
// it terminates this thread.
import { parentPort } from "node:worker_threads";
import { getDocumentProxy } from "unpdf";

/** What pdf.js's error names say about the file. */
function problemOf(error) {
  const name = error?.name;
  if (name === "PasswordException") return { problem: "password" };
  return { problem: name === "InvalidPDFException" ? "invalid" : "damaged" };
}

/**
 * The text of one page as unpdf's extractText gives it (NUL characters taken out), read in chunks; null once it passes
 * `room` characters.
 */
async function pageText(page, room) {
  const reader = page.streamTextContent().getReader();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    for (const item of value.items)
      if (item.str != null) text += item.str.replaceAll("\u0000", "") + (item.hasEOL ? "\n" : "");
    if (text.length > room) {
      // pdf.js stops reading the page's content (it wants an Error as the reason).
      await reader.cancel(new Error("The text is over the limit."));
      return null;
    }
  }
}

async function read({ bytes, maxPages, maxChars }) {
  let pdf;
  try {
    pdf = await getDocumentProxy(bytes, { verbosity: 0 });
  } catch (error) {
    return problemOf(error);
  }
  try {
    if (pdf.numPages > maxPages) return { problem: "pages", pages: pdf.numPages };
    const pages = [];
    let chars = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const text = await pageText(page, maxChars - chars);
      page.cleanup();
      if (text === null) return { problem: "chars", page: number, pages: pdf.numPages };
      pages.push(text);
      chars += text.length;
    }
    return { pages };
  } catch (error) {
    return problemOf(error);
  } finally {
    await pdf.loadingTask.destroy().catch(() => {});
  }
}

parentPort.on("message", async (job) => {
  parentPort.postMessage(await read(job));
});
