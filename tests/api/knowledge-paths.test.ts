// Knowledge paths that could show as, or land on, another file: encoded dot segments are refused (not resolved to
// another path), "café" precomposed and decomposed is one file (NFC), and invisible format characters (bidi
// overrides, zero-width spaces) are refused. Each refusal is a 400 naming the path, and changes nothing.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { expectApiError } from "./helpers.ts";

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(async () => {
  await server?.stop();
});

const url = (path: string) => `${server.url}/api/workspaces/default/knowledge/${path}`;
const put = (path: string, body: string) =>
  fetch(url(path), { method: "PUT", headers: { "content-type": "text/plain" }, body });
const list = async () =>
  ((await (await fetch(`${server.url}/api/workspaces/default/knowledge`)).json()) as Array<{ path: string }>).map(
    (f) => f.path,
  );

/** A request whose path is sent exactly as written (fetch would resolve its dot segments first, as browsers do). */
function rawRequest(method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: hostname, port, method, path, headers: body === undefined ? {} : { "content-type": "text/plain" } },
      (response) => {
        let text = "";
        response.on("data", (d) => (text += d));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

describe("knowledge paths", () => {
  it("refuses encoded dot segments instead of storing the file under the path they resolve to", async () => {
    for (const path of ["a/%2e%2e/b.md", "a/%2E%2E/b.md", "a/.%2e/b.md", "a/%2e/b.md", "a/%2e%2e%2fb.md"]) {
      const response = await rawRequest("PUT", `/api/workspaces/default/knowledge/${path}`, "sneaky");
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      expect(response.body).toMatch(/"code":"bad_request"/);
    }
    expect(await list()).toEqual([]);
  });

  it("stores café precomposed (NFC) and decomposed (NFD) as one file, named in NFC", async () => {
    const nfc = "café.md".normalize("NFC");
    const nfd = "café.md".normalize("NFD");
    expect(nfc).not.toBe(nfd);
    expect((await put(encodeURIComponent(nfc), "first")).status).toBe(201);
    expect((await put(encodeURIComponent(nfd), "second")).status).toBe(200);
    expect(await list()).toEqual([nfc]);
    const back = await fetch(url(encodeURIComponent(nfd)));
    expect(await back.text()).toBe("second");
    expect((await fetch(url(encodeURIComponent(nfd)), { method: "DELETE" })).status).toBe(204);
    expect(await list()).toEqual([]);
  });

  it("refuses right-to-left overrides and other invisible format characters", async () => {
    const names = [
      "invoice\u202Efdp.md",
      "a\u2066b.md",
      "x\u200Fy.md",
      "zero\u200Bwidth.md",
      "bom\uFEFF.md",
      "soft\u00ADhyphen.md",
      "tag\u{E0041}.md",
    ];
    for (const name of names) {
      const message = await expectApiError(await put(encodeURIComponent(name), "text"), 400, "bad_request");
      expect(message).toMatch(/invisible|control/i);
    }
    expect(await list()).toEqual([]);
    // An emoji sequence joined by U+200D is a visible name.
    expect((await put(encodeURIComponent("team-👩‍💻.md"), "ok")).status).toBe(201);
  });
});
